import { z } from 'zod';
import type { AuditEvent } from '../../../models/AuditEvent';
import { presentHealthDetail } from '../presenters';
import { GatewayHealthDetailSchema } from '../schemas';
import { accessDenial, callerKey } from '../toolAccess';
import type { ToolCatalogue } from '../toolCatalogue';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import type { WorkerHealth } from '../workerHealth';
import { toolSearchTool } from './toolSearch';

/** Reads of the audited tool calls (the platform's AuditLog fits). */
export interface AuditReader {
  recent(filter: { actor?: string; kind?: string; target?: string }, limit: number): Promise<AuditEvent[]>;
}

/** What the gateway worker reads: the catalogue and health (built after the workers), the audit log, the sessions. */
export interface GatewayWorkerOptions {
  catalogue: () => ToolCatalogue;
  health: () => WorkerHealth;
  audit: AuditReader;
  sessions: () => { open: number; max: number; idleSeconds: number };
}

const CallSchema = z.object({
  at: z.string(),
  actor: z.string(),
  tool: z.string(),
  outcome: z.string(),
  duration_ms: z.number().nullable(),
  code: z.string().nullable(),
  cost_units: z.number().nullable().meta({ description: 'Cost units the call charged to your quota' }),
  arguments: z.unknown().meta({ description: 'The arguments, secrets redacted' }),
});
const CallsSchema = z.object({ calls: z.array(CallSchema) });
const limit = z
  .number()
  .int()
  .min(1)
  .max(100)
  .default(20)
  .meta({ description: 'How many, newest first (1-100)' });

function presentCall(event: AuditEvent): z.infer<typeof CallSchema> {
  const details = event.details;
  return {
    at: new Date(event.at).toISOString(),
    actor: event.actor,
    tool: event.target,
    outcome: event.outcome,
    duration_ms: typeof details.duration_ms === 'number' ? details.duration_ms : null,
    code: typeof details.code === 'string' ? details.code : null,
    cost_units: typeof details.cost_units === 'number' ? details.cost_units : null,
    arguments: details.arguments,
  };
}

const summariseCalls = ({ calls }: z.infer<typeof CallsSchema>) =>
  calls.length === 0
    ? 'No calls recorded.'
    : calls.map((call) => `${call.at} ${call.tool}: ${call.outcome}`).join('\n');

/** The gateway's own worker: its health, what the caller may call, and the audited calls. */
export function gatewayWorker(options: GatewayWorkerOptions): Worker {
  return {
    name: 'gateway',
    description:
      'The tool gateway itself: find tools, worker health, your access, and the audit of tool calls.',
    stores: [],
    resources: [
      {
        uri: 'forge://gateway/workers',
        name: 'gateway-workers',
        title: 'Workers and your tools',
        description: 'Each worker of the gateway with its description and the tools you may call (markdown).',
        mimeType: 'text/markdown',
        access: ACCESS.anyone,
        read: (_variables, caller) =>
          options
            .catalogue()
            .workers.map((worker) => {
              const tools = worker.tools.filter((tool) => accessDenial(tool.access, caller) === undefined);
              const lines = tools.map((tool) => `- \`${tool.name}\`: ${tool.title}`);
              return `## ${worker.name}\n\n${worker.description}\n\n${lines.join('\n') || '(none for you)'}`;
            })
            .join('\n\n'),
      },
    ],
    tools: [
      toolSearchTool(options.catalogue),
      defineTool({
        name: 'gateway_health',
        title: 'Worker health (operators)',
        description:
          'Each worker’s state (up, degraded, down) with the reason, tool count, calls, errors, latency and last error.',
        input: z.strictObject({}),
        output: GatewayHealthDetailSchema,
        annotations: READ_ONLY,
        access: ACCESS.operator,
        handler: async () => presentHealthDetail(await options.health().report(), options.sessions()),
        summarise: (health) =>
          `${health.status}: ${health.workers.map((worker) => `${worker.name} ${worker.state}`).join(', ')}.`,
      }),
      defineTool({
        name: 'gateway_access',
        title: 'What you may call',
        description:
          'Every tool of the gateway with whether you may call it and, if not, what you lack (identity tier, ' +
          'role, or a signed-in user instead of the service token).',
        input: z.strictObject({}),
        output: z.object({
          tools: z.array(
            z.object({
              name: z.string(),
              worker: z.string(),
              allowed: z.boolean(),
              reason: z.string().optional(),
            }),
          ),
        }),
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: async (_input, { caller }) => ({
          tools: options.catalogue().workers.flatMap((worker) =>
            worker.tools.map((tool) => {
              const reason = accessDenial(tool.access, caller);
              return {
                name: tool.name,
                worker: worker.name,
                allowed: reason === undefined,
                ...(reason ? { reason } : {}),
              };
            }),
          ),
        }),
        summarise: ({ tools }) =>
          `You may call ${tools.filter((tool) => tool.allowed).length} of ${tools.length} tools.`,
      }),
      defineTool({
        name: 'gateway_my_calls',
        title: 'Your recent tool calls',
        description:
          'Your own recent tool calls through this gateway (from the audit log): tool, outcome, duration.',
        input: z.strictObject({ limit }),
        output: CallsSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: async (input, { caller }) => ({
          calls: (
            await options.audit.recent({ actor: callerKey(caller), kind: 'mcp.tool_call' }, input.limit)
          ).map(presentCall),
        }),
        summarise: summariseCalls,
      }),
      defineTool({
        name: 'gateway_audit_recent',
        title: 'Audit of tool calls (admins)',
        description:
          'Recent tool calls of every caller, optionally of one actor (user:<id> or service) or one tool.',
        input: z.strictObject({
          actor: z.string().max(80).optional(),
          tool: z.string().max(80).optional(),
          limit,
        }),
        output: CallsSchema,
        annotations: READ_ONLY,
        access: ACCESS.admin,
        handler: async (input) => ({
          calls: (
            await options.audit.recent(
              { actor: input.actor, kind: 'mcp.tool_call', target: input.tool },
              input.limit,
            )
          ).map(presentCall),
        }),
        summarise: summariseCalls,
      }),
    ],
  };
}
