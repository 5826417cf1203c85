import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  acceptedContent,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ToolCallError } from './errors';

/** What a confirmation's `requestState` carries: the tool and a digest of its arguments (never the arguments). */
export interface ConfirmationPayload {
  tool: string;
  args: string;
}

/** The round of a 2026-07-28 call that may carry a confirmation: the client's answers, the verified state. */
export interface ConfirmationRound {
  responses: Record<string, unknown> | undefined;
  /** The verified `requestState` payload (the codec checked its MAC, expiry and caller binding). */
  state: unknown;
  /** Seals a payload into the `requestState` of an `input_required` answer, bound to this caller. */
  mint(payload: ConfirmationPayload): Promise<string>;
}

const ConfirmSchema = z.object({ confirm: z.boolean() });
const REQUESTED_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Go ahead', description: 'true to go ahead' } },
  required: ['confirm'],
};

/**
 * Confirmations of tools that spend or sign, through the 2026-07-28 revision's `input_required` result: the first
 * call answers with an elicitation ("Buy listing … for 40 coins?") and an HMAC-sealed `requestState` bound to the
 * caller, the tool and the arguments' digest; the retried call acts only when the state verifies, matches and the
 * answer is `confirm: true`. The key comes from MCP_CONFIRMATION_KEY, else is derived from BRAIN_SERVICE_TOKEN
 * (every process of a deployment shares it), else is random per process (one process serves both rounds).
 */
export class ConfirmationState {
  private readonly codec: RequestStateCodec<ConfirmationPayload>;

  constructor(options: { key?: string; serviceToken?: string; ttlSeconds?: number }) {
    const key =
      options.key ??
      (options.serviceToken
        ? createHmac('sha256', options.serviceToken).update('forge mcp confirmation key').digest()
        : randomBytes(32));
    this.codec = createRequestStateCodec<ConfirmationPayload>({
      key,
      ttlSeconds: options.ttlSeconds ?? 300,
      bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`,
    });
  }

  /** The SDK's `requestState.verify` hook: throws on a forged, expired or another caller's state. */
  verify(state: string, ctx: ServerContext): Promise<ConfirmationPayload> {
    return this.codec.verify(state, ctx);
  }

  mint(payload: ConfirmationPayload, ctx: ServerContext): Promise<string> {
    return this.codec.mint(payload, ctx);
  }
}

/**
 * Whether a call of `tool` with `args` may act now: undefined when this round carries a matching, accepted
 * confirmation; otherwise the `input_required` answer asking for it. A declined or cancelled confirmation is the
 * tool error TOOL_NOT_CONFIRMED (the call did nothing).
 */
export async function confirmationNeeded(
  tool: string,
  args: unknown,
  message: string,
  round: ConfirmationRound,
): Promise<InputRequiredResult | undefined> {
  const payload: ConfirmationPayload = { tool, args: digest(args) };
  const state = round.state as Partial<ConfirmationPayload> | undefined;
  const matches = state?.tool === payload.tool && state.args === payload.args;
  const answer = inputResponse(round.responses, 'confirm');
  if (matches && answer.kind === 'elicit') {
    if (acceptedContent(round.responses, 'confirm', ConfirmSchema)?.confirm === true) return undefined;
    throw new ToolCallError(
      'TOOL_NOT_CONFIRMED',
      `You did not confirm ${tool}; nothing was done.`,
      'refused',
    );
  }
  return inputRequired({
    inputRequests: { confirm: inputRequired.elicit({ message, requestedSchema: REQUESTED_SCHEMA }) },
    requestState: await round.mint(payload),
  });
}

/** A stable digest of a call's arguments (keys sorted), so a confirmation covers exactly these arguments. */
function digest(args: unknown): string {
  return createHash('sha256').update(canonical(args)).digest('base64url');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
