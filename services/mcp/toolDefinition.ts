import type { Logger } from 'pino';
import type { z } from 'zod';
import type { UserRole } from '../../models/User';
import type { Principal } from '../../access/principal';

/**
 * Who may call a tool. `user`: signed-in users at identity tier `tier` (default 0) or above holding `role` (or a
 * higher one); absent, users may not call it. `service`: whether the service token (BRAIN_SERVICE_TOKEN) may.
 */
export interface ToolAccess {
  user?: { tier?: number; role?: UserRole };
  service?: boolean;
}

/** MCP tool annotations (hints for clients; never relied on for security). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** True when the tool reaches beyond the platform (a chain, an outside provider). Default false. */
  openWorldHint?: boolean;
}

/** What a handler gets besides its validated input: who is calling, where to log, and the HTTP request's origin. */
export interface ToolCall {
  caller: Principal;
  logger: Logger;
  /** The client's address and the request id of the HTTP request (for areas that audit their own commands). */
  ip?: string | null;
  requestId?: string | null;
}

type ObjectSchema = z.ZodObject;

/**
 * One tool: its name and texts for a model, zod input and output schemas, annotations, access, an optional limit
 * of its own, and the handler that acts as the caller. Handlers throw the area's `AppError`s (the gateway turns
 * them into tool errors with the area's code); they never check access themselves.
 */
export interface ToolDefinition<
  I extends ObjectSchema = ObjectSchema,
  O extends ObjectSchema = ObjectSchema,
> {
  /** snake_case, prefixed by its worker (e.g. `world_move`). */
  name: string;
  title: string;
  /** What it does, when to use it, what it returns: written for a model choosing tools. */
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  access: ToolAccess;
  /** Calls per minute per caller for this tool; default MCP_TOOL_CALLS_PER_MINUTE. */
  callsPerMinute?: number;
  /** Calls per day per caller for this tool (a durable quota); default MCP_QUOTA_TOOL_CALLS_PER_DAY. */
  callsPerDay?: number;
  /** Cost units a call charges to the caller's daily quota and usage (default 1): what an operator bills. */
  cost?: number;
  /**
   * The question a 2026-07-28 client must confirm before the call acts (tools that spend or sign), built from the
   * validated input. Absent: the tool acts at once.
   */
  confirm?: (input: z.output<I>, call: ToolCall) => Promise<string>;
  /** Still callable while its worker is down (status tools that report why). Default false. */
  whileDown?: boolean;
  handler(input: z.output<I>, call: ToolCall): Promise<z.input<O>>;
  /** The short text beside the structured result. */
  summarise(output: z.output<O>): string;
}

/** A tool with its schema types erased, as the registry holds it. */
export type AnyTool = ToolDefinition<ObjectSchema, ObjectSchema>;

/** Declares a tool with its handler and summary typed from its schemas. */
export function defineTool<I extends ObjectSchema, O extends ObjectSchema>(
  tool: ToolDefinition<I, O>,
): AnyTool {
  return tool as unknown as AnyTool;
}

/** A worker's state: `up`, `degraded` (serving, with a reason) or `down` (its tools answer TOOL_WORKER_DOWN). */
export interface WorkerProbe {
  state: 'up' | 'degraded' | 'down';
  reason?: string;
}

/** A readable resource (or a family of them, by URI template) a worker offers agents. */
export interface ResourceDefinition {
  /** Fixed URI (`forge://world/areas`) or RFC 6570 level-1 template (`forge://world/areas/{area_id}`). */
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: 'application/json' | 'text/markdown';
  access: ToolAccess;
  /** The concrete URIs a template stands for (listed by `resources/list`); fixed URIs need none. */
  list?: () => Array<{ uri: string; name: string; title: string }>;
  /** The resource's text for these template variables; throws NotFoundError when there is none. */
  read(variables: Record<string, string>, caller: Principal): Promise<string> | string;
}

/** A prompt template a worker offers (`prompts/list`, `prompts/get`). */
export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  /** Argument names with their descriptions; all are strings. */
  arguments: Array<{ name: string; description: string; required: boolean }>;
  access: ToolAccess;
  /** The user message the prompt expands to. */
  render(args: Record<string, string>): string;
}

/** A worker: one service area's tools and the probe that derives its state from its stores and providers. */
export interface Worker {
  name: string;
  /** One sentence for agents and operators. */
  description: string;
  /** Stores whose readiness the worker's state depends on (names of the platform's readiness checks). */
  stores: string[];
  tools: AnyTool[];
  resources?: ResourceDefinition[];
  prompts?: PromptDefinition[];
  /** The area's own state (providers, reachability); stores are checked by the gateway. Default: up. */
  probe?: () => Promise<WorkerProbe> | WorkerProbe;
}

/** Common access rules. */
export const ACCESS = {
  /** Any signed-in user and the service token. */
  anyone: { user: {}, service: true },
  /** Signed-in users (tools acting as the player). */
  player: { user: {} },
  /** Users at identity tier 1 (Registered) or above, and the service token. */
  registered: { user: { tier: 1 }, service: true },
  /** Users at identity tier 1 or above, acting as themselves (moving their coins or items out; guests may not). */
  registeredPlayer: { user: { tier: 1 } },
  /** Operators (and admins) and the service token. */
  operator: { user: { role: 'operator' }, service: true },
  /** Admins only. */
  admin: { user: { role: 'admin' } },
  /** Users holding the `creator` grant (orthogonal to the ranked roles: an admin without it is refused). */
  creator: { user: { role: 'creator' } },
} as const satisfies Record<string, ToolAccess>;

/** Annotation presets. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
};
/** Changes state; repeating it repeats the effect. */
export const ACTS: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
