import { ProtocolError, ProtocolErrorCode, Server, type ServerContext } from '@modelcontextprotocol/server';
import type { AgentContent } from './agentContent';
import type { CatalogueView } from './catalogueView';
import type { ConfirmationState } from './confirmations';
import type { CallContext, ToolCalls } from './toolCalls';
import type { ToolCatalogue } from './toolCatalogue';

/**
 * The protocol revisions the gateway serves: 2026-07-28 (stateless, per request) first, then 2025-11-25 and the
 * older revisions the SDK still negotiates through `initialize` (served with sessions).
 */
export const GATEWAY_PROTOCOL_VERSIONS = [
  '2026-07-28',
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
];

/** What every server instance answers from. */
export interface GatewayServerDependencies {
  catalogue: ToolCatalogue;
  calls: ToolCalls;
  content: AgentContent;
  confirmations: ConfirmationState;
  version: string;
}

/** The era a server instance serves: `modern` (2026-07-28, one instance per request) or `legacy` (a session). */
export type ProtocolEra = 'modern' | 'legacy';

const INSTRUCTIONS =
  'Forge Platform: a game platform with a knowledge base ("brain"), a text MUD world and on-chain signing. ' +
  'Tools are grouped by worker (brain_, world_, identity_, signer_, gateway_); you see only the tools your ' +
  'credential may call, and every tool acts as you. With a small catalogue (/mcp?catalogue=starter) call ' +
  'gateway_find_tools to find the rest. World tools move your own character: start with world_look. ' +
  'A tool error starting with a code (e.g. NO_EXIT, TOOL_RATE_LIMITED) says why it failed and what to do.';

/** Lists depend on the credential only, so clients may keep them a while, privately (never in shared caches). */
const PRIVATE_MINUTE = { ttlMs: 60_000, cacheScope: 'private' } as const;

/**
 * One MCP server instance (the low-level SDK `Server`: the gateway lists and dispatches from its catalogue instead
 * of registering 90 tools per instance). The caller of each request comes from its HTTP request's credential,
 * carried in `authInfo.extra`; the catalogue view (groups, starter) from the `/mcp` URL.
 */
export function createGatewayServer(deps: GatewayServerDependencies, era: ProtocolEra): Server {
  const server = new Server(
    { name: 'forge-platform', title: 'Forge Platform tool gateway', version: deps.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: INSTRUCTIONS,
      supportedProtocolVersions: GATEWAY_PROTOCOL_VERSIONS,
      cacheHints: {
        'tools/list': PRIVATE_MINUTE,
        'resources/list': PRIVATE_MINUTE,
        'resources/templates/list': PRIVATE_MINUTE,
        'prompts/list': PRIVATE_MINUTE,
        'server/discover': { ttlMs: 300_000, cacheScope: 'public' },
      },
      // Confirmations are asked of 2026-07-28 clients only; older ones get the previous behaviour (README).
      inputRequired: { legacyShim: false },
      requestState: { verify: (state, ctx) => deps.confirmations.verify(state, ctx) },
    },
  );
  server.setRequestHandler('tools/list', (_request, ctx) => {
    const context = contextOf(ctx, era, deps);
    return { tools: deps.catalogue.listFor(context.caller, context.view) };
  });
  server.setRequestHandler('tools/call', (request, ctx) =>
    deps.calls.call(request.params.name, request.params.arguments, contextOf(ctx, era, deps)),
  );
  server.setRequestHandler('resources/list', (_request, ctx) => ({
    resources: deps.content.listResources(contextOf(ctx, era, deps).caller),
  }));
  server.setRequestHandler('resources/templates/list', (_request, ctx) => ({
    resourceTemplates: deps.content.listTemplates(contextOf(ctx, era, deps).caller),
  }));
  server.setRequestHandler('resources/read', async (request, ctx) => ({
    contents: [await deps.content.readResource(request.params.uri, contextOf(ctx, era, deps).caller)],
  }));
  server.setRequestHandler('prompts/list', (_request, ctx) => ({
    prompts: deps.content.listPrompts(contextOf(ctx, era, deps).caller),
  }));
  server.setRequestHandler('prompts/get', (request, ctx) =>
    deps.content.getPrompt(
      request.params.name,
      request.params.arguments ?? {},
      contextOf(ctx, era, deps).caller,
    ),
  );
  return server;
}

/** What the HTTP layer put in `authInfo.extra` for the server (every request is authenticated before it gets here). */
export interface RequestCall extends Omit<CallContext, 'sessionId' | 'era' | 'confirmation'> {
  view: CatalogueView;
}

/** The call context of a request: the HTTP layer's part, the session and the 2026-07-28 confirmation round. */
function contextOf(
  ctx: ServerContext,
  era: ProtocolEra,
  deps: Pick<GatewayServerDependencies, 'confirmations'>,
): CallContext & { view: CatalogueView } {
  const context = ctx.http?.authInfo?.extra?.call as RequestCall | undefined;
  if (!context)
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Unauthenticated request reached the server');
  return {
    ...context,
    sessionId: ctx.sessionId ?? null,
    era,
    confirmation: {
      responses: ctx.mcpReq.inputResponses,
      state: ctx.mcpReq.requestState<unknown>(),
      mint: (payload) => deps.confirmations.mint(payload, ctx),
    },
  };
}
