import fs from 'node:fs';
import path from 'node:path';
import { envSchema } from '../../platform/config/envSchema';
import { loadConfig } from '../../platform/config';

const example = fs.readFileSync(path.join(__dirname, '../../.env.example'), 'utf8');
const assignments = new Map(
  example
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
);

describe('.env.example', () => {
  it('lists exactly the variables the server reads', () => {
    expect([...assignments.keys()].sort()).toEqual(Object.keys(envSchema.shape).sort());
  });

  it('is itself a valid configuration equal to the defaults', () => {
    expect(loadConfig(Object.fromEntries(assignments))).toEqual(loadConfig({}));
  });

  it('documents the front-end and bot-side variables', () => {
    for (const name of [
      'NEXT_PUBLIC_SIWE_DOMAIN',
      'NEXT_PUBLIC_SIWE_URI',
      'NEXT_PUBLIC_SIWE_CHAIN_ID',
      'NEXT_PUBLIC_SIWE_STATEMENT',
      'BRAIN_API_URL',
      'BRAIN_ENABLED',
      'BOT_INSTANCE_ID',
    ]) {
      expect(example).toContain(name);
    }
  });
});
