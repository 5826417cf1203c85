// The import layers of docs/ARCHITECTURE.md as ESLint `no-restricted-imports` rules, one block per folder and depth.
// A relative import that climbs to the repository root (exactly as many `../` as the file is deep) must land in
// a folder its layer may use; anything else fails `npm run lint`. Packages from node_modules are not restricted.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folder → the top-level folders (or single modules) its files may import, besides themselves. */
export const LAYERS = {
  platform: [],
  embedded: ['platform/clock', 'platform/listen', 'platform/threadName'],
  models: ['platform/'],
  contracts: ['platform/'],
  access: ['models/', 'platform/'],
  ai: ['models/', 'platform/'],
  rooms: ['models/', 'platform/'],
  services: ['access/', 'ai/', 'rooms/', 'models/', 'contracts/', 'embedded/', 'platform/'],
};

/** Deepest folder nesting the rules cover (services/signer/issuing/x.ts is depth 3). */
const MAX_DEPTH = 8;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `folder/` allows a folder (its index) and everything under it; a module name allows that module only. */
const allowed = (entry) => (entry.endsWith('/') ? `${escape(entry.slice(0, -1))}(/|$)` : `${escape(entry)}$`);

/** The service areas: each folder under services/. */
const serviceAreas = () =>
  readdirSync(join(import.meta.dirname, 'services'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/**
 * A file `depth` folders below the root inside services/<area>/ may reach another area only through its index.ts:
 * an import that climbs to services/ (`depth - 1` times `../`) and names another area and a file in it fails.
 */
const deepAreaImport = (area, depth) => ({
  regex: `^(\\.\\./){${depth - 1}}(?!${escape(area)}/)[\\w-]+/(?!index$).+`,
  message: `import another service area through its index.ts, not its files (docs/ARCHITECTURE.md, "Areas and their public faces")`,
});

/** The flat-config blocks: for each layer and depth, the imports that leave the layer's allowed set. */
export function layerRules() {
  const blocks = [];
  for (const [folder, uses] of Object.entries(LAYERS)) {
    const allowedTargets = [`${folder}/`, ...uses].map(allowed).join('|');
    const message = `${folder}/ may import only ${uses.length ? uses.join(', ') : 'itself'} (docs/ARCHITECTURE.md, "Import layers")`;
    for (let depth = 1; depth <= MAX_DEPTH; depth += 1) {
      const layer = { regex: `^(\\.\\./){${depth}}(?!${allowedTargets})`, message };
      const rule = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
      // Inside services/, one block per area and depth: a later block replaces the rule's options, so each
      // carries the layer pattern as well as the one against reaching past another area's index.ts.
      if (folder === 'services' && depth >= 2) {
        for (const area of serviceAreas()) {
          blocks.push({
            files: [`services/${area}/${'*/'.repeat(depth - 2)}*.{ts,mts,js,mjs}`],
            rules: rule([layer, deepAreaImport(area, depth)]),
          });
        }
        continue;
      }
      blocks.push({ files: [`${folder}/${'*/'.repeat(depth - 1)}*.{ts,mts,js,mjs}`], rules: rule([layer]) });
    }
  }
  return blocks;
}
