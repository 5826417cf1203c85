/** `npm run docs:config`: writes docs/CONFIGURATION.md from the config schema and `.env.example`. */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../projectRoot';
import { renderConfigurationDoc } from './configDocs';
import { envSchema } from './envSchema';

const root = PROJECT_ROOT;
const envExample = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
const target = path.join(root, 'docs', 'CONFIGURATION.md');
fs.writeFileSync(target, renderConfigurationDoc(envSchema, envExample));
process.stdout.write(`wrote ${path.relative(root, target)}\n`);
