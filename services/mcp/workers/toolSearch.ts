import { z } from 'zod';
import type { CatalogueEntry, ToolCatalogue } from '../toolCatalogue';
import { ACCESS, READ_ONLY, defineTool, type AnyTool } from '../toolDefinition';

const FoundToolSchema = z.object({
  name: z.string(),
  title: z.string(),
  group: z.string().meta({ description: 'The worker the tool belongs to' }),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()).meta({ description: 'Its arguments, as JSON Schema' }),
});
const FoundToolsSchema = z.object({ tools: z.array(FoundToolSchema), total_callable: z.number().int() });

/** Words of a text, lower case (tool names split at `_`). */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
}

/** How well an entry matches the query's words: its name counts most, then its group, title and description. */
function score(entry: CatalogueEntry, query: string[]): number {
  const fields: Array<[string[], number]> = [
    [words(entry.tool.name), 4],
    [[entry.worker.name], 3],
    [words(entry.tool.title), 2],
    [words(entry.tool.description), 1],
  ];
  let total = 0;
  for (const word of query) {
    for (const [field, weight] of fields) {
      if (field.some((candidate) => candidate === word || (word.length > 3 && candidate.startsWith(word)))) {
        total += weight;
      }
    }
  }
  return total;
}

/**
 * `gateway_find_tools`: the tool-search tool of a small catalogue. An agent that listed only the starter tools (or
 * some groups) asks in words for what it needs and gets the best matching tools it may call, with their input
 * schemas, then calls them by name (calls are never limited to the listed view). Deterministic: ties by name.
 */
export function toolSearchTool(catalogue: () => ToolCatalogue): AnyTool {
  return defineTool({
    name: 'gateway_find_tools',
    title: 'Find tools by what they do',
    description:
      'Search the tools you may call by what you want to do (e.g. "buy an item", "remember something", "graph ' +
      'neighbours"), or list one group (worker: brain, memory, graph, world, economy, marketplace, …). Answers ' +
      'each tool with its input schema: call it by name next, even if tools/list did not show it.',
    input: z.strictObject({
      query: z.string().trim().min(1).max(200).optional().meta({ description: 'What you want to do' }),
      group: z.string().trim().min(1).max(40).optional().meta({ description: 'Only this group (worker)' }),
      limit: z.number().int().min(1).max(25).default(8).meta({ description: 'Most tools to answer (1-25)' }),
    }),
    output: FoundToolsSchema,
    annotations: READ_ONLY,
    access: ACCESS.anyone,
    whileDown: true,
    handler: async ({ query, group, limit }, { caller }) => {
      const callable = catalogue()
        .callableBy(caller)
        .filter((entry) => !group || entry.worker.name === group);
      const asked = words(query ?? '');
      const ranked = callable
        .map((entry) => ({ entry, score: asked.length ? score(entry, asked) : 1 }))
        .filter((hit) => hit.score > 0)
        .sort((a, b) => b.score - a.score || a.entry.tool.name.localeCompare(b.entry.tool.name));
      return {
        tools: ranked.slice(0, limit).map(({ entry }) => ({
          name: entry.tool.name,
          title: entry.tool.title,
          group: entry.worker.name,
          description: entry.tool.description,
          input_schema: entry.listed.inputSchema,
        })),
        total_callable: callable.length,
      };
    },
    summarise: ({ tools }) =>
      tools.length === 0
        ? 'No tool you may call matches; try other words or gateway_access.'
        : tools.map((tool) => `${tool.name} (${tool.group}): ${tool.title}`).join('\n'),
  });
}
