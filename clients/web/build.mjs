// Builds the web client: src/main.ts (and @colyseus/sdk) bundled by esbuild into dist/web/app.js, src/admin.ts (the
// operator console) into dist/web/admin.js, plus the static
// files of public/. `node clients/web/build.mjs` (part of `npm run build`); exits non-zero on an error.
import { build } from 'esbuild';
import process from 'node:process';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
/** Where the api role serves the client from. */
export const WEB_OUT_DIR = path.join(root, 'dist', 'web');

/** Bundles and copies the client; returns the esbuild metafile. */
export async function buildWebClient() {
  await mkdir(WEB_OUT_DIR, { recursive: true });
  const result = await build({
    // The player page (app.js) and the operator console (admin.js).
    entryPoints: { app: path.join(here, 'src', 'main.ts'), admin: path.join(here, 'src', 'admin.ts') },
    outdir: WEB_OUT_DIR,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: true,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  await cp(path.join(here, 'public'), WEB_OUT_DIR, { recursive: true });
  return result.metafile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildWebClient();
}
