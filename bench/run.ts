/**
 * `npm run bench`: runs every benchmark script in bench/ (or those named on the command line) one after another
 * and prints their figures. A file another bench script imports (`from './syntheticCorpus'`) is a helper module,
 * not a benchmark, and is not run on its own. Benchmarks are never part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const requested = process.argv.slice(2);
const files = fs
  .readdirSync(__dirname)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts' && !file.startsWith('.'));
const helpers = new Set(
  files.flatMap((file) =>
    [...fs.readFileSync(path.join(__dirname, file), 'utf8').matchAll(/from '\.\/([\w.-]+)'/g)].map(
      (match) => `${match[1].replace(/\.ts$/, '')}.ts`,
    ),
  ),
);
const scripts = files
  .filter((file) => !helpers.has(file))
  .filter((file) => requested.length === 0 || requested.includes(path.basename(file, '.ts')))
  .sort();

if (scripts.length === 0) {
  console.log(requested.length ? `No benchmark named ${requested.join(', ')}` : 'No benchmarks yet.');
}
let failed = 0;
for (const script of scripts) {
  console.log(`\n=== ${script} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, script)], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
