// `npm run build`: the server transpiled file by file with esbuild into dist/ (same layout as the sources, CommonJS,
// source maps; JSON files the sources import copied beside them), then the web client (clients/web/build.mjs) and
// the bot client (clients/bot/build.mjs).
// Type checking is `npm run typecheck` (tsc); esbuild only strips types, in well under a second.
import { build } from 'esbuild';
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { buildBotClient } from './clients/bot/build.mjs';
import { buildWebClient } from './clients/web/build.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.join(root, 'dist');
/** Folders that are not part of the server. */
const SKIP = new Set(['node_modules', 'dist', 'data', 'coverage', 'test', 'bench', '.git', 'clients']);

async function serverSources(dir = root) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && !SKIP.has(entry.name) && !entry.name.startsWith('.')) {
      found.push(...(await serverSources(full)));
    } else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      found.push(full);
    }
  }
  return found;
}

/** Copies the JSON files the sources import (`import abi from '../x.json'`) to the same place under dist/. */
async function copyImportedJson(sources) {
  const copied = new Set();
  for (const source of sources) {
    const text = await readFile(source, 'utf8');
    for (const [, spec] of text.matchAll(/from '(\.{1,2}\/[^']+\.json)'/g)) {
      const file = path.resolve(path.dirname(source), spec);
      if (copied.has(file)) continue;
      copied.add(file);
      const target = path.join(outdir, path.relative(root, file));
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(file, target);
    }
  }
}

/** Builds the server and the web client; returns how long each took (ms). */
export async function buildAll() {
  const started = performance.now();
  const sources = await serverSources();
  await build({
    entryPoints: sources,
    outdir,
    outbase: root,
    bundle: false,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    tsconfig: path.join(root, 'tsconfig.build.json'),
    logLevel: 'warning',
  });
  await copyImportedJson(sources);
  const server = performance.now() - started;
  await buildWebClient();
  const web = performance.now() - started - server;
  await buildBotClient();
  return {
    serverMs: Math.round(server),
    webMs: Math.round(web),
    botMs: Math.round(performance.now() - started - server - web),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const times = await buildAll();
  if (process.argv.includes('--times')) process.stdout.write(`${JSON.stringify(times)}\n`);
}
