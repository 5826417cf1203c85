import fs from 'node:fs';
import path from 'node:path';
import { renderConfigurationDoc } from '../../platform/config/configDocs';
import { envSchema } from '../../platform/config/envSchema';

const root = path.join(__dirname, '../..');

describe('docs/CONFIGURATION.md', () => {
  it('is what `npm run docs:config` renders from the config schema and .env.example', () => {
    const envExample = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
    const committed = fs.readFileSync(path.join(root, 'docs/CONFIGURATION.md'), 'utf8');
    expect(committed).toBe(renderConfigurationDoc(envSchema, envExample));
  });

  it('lists every variable of the schema once', () => {
    const committed = fs.readFileSync(path.join(root, 'docs/CONFIGURATION.md'), 'utf8');
    for (const name of Object.keys(envSchema.shape)) {
      expect(committed.match(new RegExp(`\`${name}\`(?:<br>|\\s\\|)`, 'g'))).toHaveLength(1);
    }
  });
});
