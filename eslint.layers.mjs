// The import layers of docs/ARCHITECTURE.md as ESLint `no-restricted-imports` rules, one block per folder and depth.
// A relative import that climbs to the repository root (exactly as many `../` as the file is deep) must land in
// a folder its layer may use; anything else fails `npm run lint`. Packages from node_modules are not restricted.

/** Folder → the top-level folders (or single modules) its files may import, besides themselves. */
export const LAYERS = {
  platform: [],
  embedded: ['platform/clock', 'platform/listen'],
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

/** The flat-config blocks: for each layer and depth, the imports that leave the layer's allowed set. */
export function layerRules() {
  const blocks = [];
  for (const [folder, uses] of Object.entries(LAYERS)) {
    const allowedTargets = [`${folder}/`, ...uses].map(allowed).join('|');
    const message = `${folder}/ may import only ${uses.length ? uses.join(', ') : 'itself'} (docs/ARCHITECTURE.md, "Import layers")`;
    for (let depth = 1; depth <= MAX_DEPTH; depth += 1) {
      blocks.push({
        files: [`${folder}/${'*/'.repeat(depth - 1)}*.{ts,mts,js,mjs}`],
        rules: {
          'no-restricted-imports': [
            'error',
            { patterns: [{ regex: `^(\\.\\./){${depth}}(?!${allowedTargets})`, message }] },
          ],
        },
      });
    }
  }
  return blocks;
}
