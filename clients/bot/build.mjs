// Builds the bot client: src/index.ts bundled by esbuild into dist/bot/index.js (CommonJS for Node 20, no
// dependencies) for bot authors to require. `node clients/bot/build.mjs` (part of `npm run build`).
import { build } from 'esbuild';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
/** Where the built client goes. */
export const BOT_OUT_DIR = path.join(root, 'dist', 'bot');

/** Bundles the client; returns the esbuild metafile. */
export async function buildBotClient() {
  const result = await build({
    entryPoints: [path.join(here, 'src', 'index.ts')],
    outfile: path.join(BOT_OUT_DIR, 'index.js'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  return result.metafile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildBotClient();
}
