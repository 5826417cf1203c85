import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { AgentContent } from './agentContent';
import type { CallContext, ToolCalls } from './toolCalls';
import type { ToolCatalogue } from './toolCatalogue';

/** What every session's server answers from. */
export interface GatewayServerDependencies {
  catalogue: ToolCatalogue;
  calls: ToolCalls;
  content: AgentContent;
  version: string;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const INSTRUCTIONS =
  'Forge Platform: a game platform with a knowledge base ("brain"), a text MUD world and on-chain signing. ' +
  'Tools are grouped by worker (brain_, world_, identity_, signer_, gateway_); you see only the tools your ' +
  'credential may call, and every tool acts as you. World tools move your own character: start with world_look. ' +
  'A tool error starting with a code (e.g. NO_EXIT, TOOL_RATE_LIMITED) says why it failed and what to do.';

/**
 * The MCP server of one session (the low-level SDK `Server`: the gateway lists and dispatches from its catalogue
 * instead of registering 40 tools per session). The caller of each request comes from its HTTP request's
 * credential, carried in `authInfo.extra`.
 */
export function createGatewayServer(deps: GatewayServerDependencies): Server {
  const server = new Server(
    { name: 'forge-platform', title: 'Forge Platform tool gateway', version: deps.version },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => ({
    tools: deps.catalogue.listFor(contextOf(extra).caller),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    deps.calls.call(request.params.name, request.params.arguments, contextOf(extra)),
  );
  server.setRequestHandler(ListResourcesRequestSchema, (_request, extra) => ({
    resources: deps.content.listResources(contextOf(extra).caller),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (_request, extra) => ({
    resourceTemplates: deps.content.listTemplates(contextOf(extra).caller),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => ({
    contents: [await deps.content.readResource(request.params.uri, contextOf(extra).caller)],
  }));
  server.setRequestHandler(ListPromptsRequestSchema, (_request, extra) => ({
    prompts: deps.content.listPrompts(contextOf(extra).caller),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    deps.content.getPrompt(request.params.name, request.params.arguments ?? {}, contextOf(extra).caller),
  );
  return server;
}

/** The call context the HTTP layer put in `authInfo.extra` (every request is authenticated before it gets here). */
function contextOf(extra: Extra): CallContext {
  const context = extra.authInfo?.extra?.call as CallContext | undefined;
  if (!context) throw new McpError(ErrorCode.InternalError, 'Unauthenticated request reached the server');
  return { ...context, sessionId: extra.sessionId ?? null };
}
