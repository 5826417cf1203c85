import { z } from 'zod';
import type { Principal } from '../../access/principal';
import { FULL_VIEW, viewShows, type CatalogueView } from './catalogueView';
import { accessDenial } from './toolAccess';
import type { AnyTool, ToolAnnotations, Worker } from './toolDefinition';

/** A tool as `tools/list` shows it. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema: { type: 'object'; [key: string]: unknown };
  annotations: ToolAnnotations & { title: string };
}

/** A registered tool, its worker and its listing (JSON Schemas computed once). */
export interface CatalogueEntry {
  tool: AnyTool;
  worker: Worker;
  listed: ListedTool;
}

/**
 * The gateway's tools, built from the workers' lists (data, not code): names are unique, each listing's JSON
 * Schemas are derived once from the zod schemas. `listFor` shows a caller only the tools it may call, sorted by
 * name, so a list is the same on every request (clients may cache it for its `ttlMs`).
 */
export class ToolCatalogue {
  private readonly entries = new Map<string, CatalogueEntry>();

  constructor(readonly workers: Worker[]) {
    const all = workers.flatMap((worker) => worker.tools.map((tool) => ({ tool, worker })));
    for (const { tool, worker } of all.sort((a, b) => (a.tool.name < b.tool.name ? -1 : 1))) {
      if (this.entries.has(tool.name)) throw new Error(`Two MCP tools are named ${tool.name}`);
      this.entries.set(tool.name, { tool, worker, listed: listing(tool) });
    }
  }

  /** The tool groups (worker names), for `/mcp?groups=`. */
  get groups(): string[] {
    return this.workers.map((worker) => worker.name);
  }

  /** Every entry `caller` may call, by name. */
  callableBy(caller: Principal): CatalogueEntry[] {
    return [...this.entries.values()].filter(
      (entry) => accessDenial(entry.tool.access, caller) === undefined,
    );
  }

  get size(): number {
    return this.entries.size;
  }

  find(name: string): CatalogueEntry | undefined {
    return this.entries.get(name);
  }

  /** The tools `caller` may call that `view` shows, by name. */
  listFor(caller: Principal, view: CatalogueView = FULL_VIEW): ListedTool[] {
    return this.callableBy(caller)
      .filter((entry) => viewShows(view, entry.tool.name, entry.worker.name))
      .map((entry) => entry.listed);
  }
}

function listing(tool: AnyTool): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: objectJsonSchema(tool.input, 'input'),
    outputSchema: objectJsonSchema(tool.output, 'output'),
    annotations: { title: tool.title, openWorldHint: false, ...tool.annotations },
  };
}

/**
 * A zod object schema as the JSON Schema (draft-07) MCP expects: `type: "object"` at the top. Schemas registered
 * with an OpenAPI id come out as a `$ref` to their definition, which is inlined here.
 */
export function objectJsonSchema(
  schema: z.ZodObject,
  io: 'input' | 'output',
): { type: 'object'; [key: string]: unknown } {
  const generated = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete generated.$schema;
  const ref = typeof generated.$ref === 'string' ? generated.$ref : undefined;
  if (!ref) return generated as { type: 'object' };
  const definitions = { ...(generated.definitions as Record<string, Record<string, unknown>>) };
  const name = ref.replace('#/definitions/', '');
  const root = definitions[name];
  delete definitions[name];
  return {
    ...(root as { type: 'object' }),
    ...(Object.keys(definitions).length > 0 ? { definitions } : {}),
  };
}
