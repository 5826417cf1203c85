import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';
import { CONTRACT_NAMES, compileContracts } from './compile';

/**
 * `npm run contracts:abi`: compiles the contracts and writes `contracts/abi/<Name>.json` (committed; the product
 * and its tests load these). Formatted with the repository's prettier settings so the files pass lint as written.
 */
async function writeAbis(): Promise<void> {
  const compiled = compileContracts();
  const dir = path.join(__dirname, 'abi');
  fs.mkdirSync(dir, { recursive: true });
  for (const name of CONTRACT_NAMES) {
    const file = path.join(dir, `${name}.json`);
    const options = (await prettier.resolveConfig(file)) ?? {};
    const text = await prettier.format(JSON.stringify(compiled[name].abi), { ...options, parser: 'json' });
    fs.writeFileSync(file, text);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  }
}

writeAbis().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
