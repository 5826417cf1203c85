/**
 * `npm run bench`: runs every benchmark script in bench/ (or those named on the command line) one after another
 * and prints their figures. Benchmarks are never part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const requested = process.argv.slice(2);
const scripts = fs
  .readdirSync(__dirname)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
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
