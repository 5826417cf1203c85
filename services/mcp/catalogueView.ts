import { z } from 'zod';
import { mcpHttpError } from './errors';

/**
 * Which part of the catalogue `tools/list` shows (chosen in the `/mcp` URL, so it holds for every request and
 * every revision, as a gateway's "virtual server" does): everything (default), the starter set, or named groups
 * (workers). Calls are never restricted by the view: an agent that found a tool with `gateway_find_tools` calls it
 * by name.
 */
export interface CatalogueView {
  /** Only these workers' tools (plus the discovery tools); absent: every group. */
  groups?: ReadonlySet<string>;
  /** Only the starter tools (plus `groups`, when named). */
  starter: boolean;
}

/** The tools a small catalogue always shows: who am I, what may I call, find the rest, search, look around. */
export const STARTER_TOOLS: readonly string[] = [
  'gateway_find_tools',
  'gateway_access',
  'identity_me',
  'brain_search',
  'brain_ask',
  'world_look',
];

/** The discovery tools, shown in every view so an agent can always find the rest. */
export const DISCOVERY_TOOLS: readonly string[] = ['gateway_find_tools', 'gateway_access'];

export const FULL_VIEW: CatalogueView = { starter: false };

const ViewQuerySchema = z.object({
  catalogue: z.enum(['full', 'starter']).optional(),
  groups: z
    .string()
    .regex(/^[a-z]+(,[a-z]+)*$/, 'comma-separated worker names, e.g. brain,world')
    .optional(),
});

/**
 * The view a `/mcp` URL asks for: `?catalogue=starter`, `?groups=brain,world` or both. Unknown groups or values
 * are a 400 problem naming the query parameter (an agent's configuration error, better found at once).
 */
export function catalogueViewOf(query: unknown, knownGroups: readonly string[]): CatalogueView {
  const parsed = ViewQuerySchema.safeParse(query ?? {});
  if (!parsed.success) {
    throw mcpHttpError('MCP_CATALOGUE_INVALID', 'Invalid catalogue view in the /mcp URL', {
      errors: parsed.error.issues.map((issue) => ({
        path: `query.${issue.path.join('.')}`,
        message: issue.message,
      })),
    });
  }
  const groups = parsed.data.groups?.split(',');
  const unknown = groups?.filter((group) => !knownGroups.includes(group)) ?? [];
  if (unknown.length > 0) {
    throw mcpHttpError('MCP_CATALOGUE_INVALID', `Unknown tool groups: ${unknown.join(', ')}`, {
      errors: [{ path: 'query.groups', message: `known groups: ${knownGroups.join(', ')}` }],
    });
  }
  return { starter: parsed.data.catalogue === 'starter', ...(groups ? { groups: new Set(groups) } : {}) };
}

/** Whether `view` shows a tool of `worker`. */
export function viewShows(view: CatalogueView, tool: string, worker: string): boolean {
  if (view === FULL_VIEW || (!view.starter && !view.groups)) return true;
  if (DISCOVERY_TOOLS.includes(tool)) return true;
  if (view.groups?.has(worker)) return true;
  return view.starter && STARTER_TOOLS.includes(tool);
}
