import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { hash, verify } from '@node-rs/argon2';
import { HierarchicalNSW } from 'hnswlib-node';
import { REPO_ROOT } from '../helpers/childProcess';

const nodeScript = fs.readFileSync(path.join(REPO_ROOT, 'scripts/node.sh'), 'utf8');
const pinned = /^FORGE_NODE_VERSION=(\d+\.\d+\.\d+)$/m.exec(nodeScript)?.[1];
const engines = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).engines
  .node as string;

/** `major.minor.patch` as numbers. */
const version = (text: string) => text.replace(/^v/, '').split('.').map(Number);

/** Whether `actual` satisfies one `^X.Y.Z` alternative of `engines.node`: the same major, at least X.Y.Z. */
const caretSatisfied = (actual: number[], floor: number[]) => {
  if (actual[0] !== floor[0]) return false;
  for (let i = 1; i < 3; i += 1) if (actual[i] !== floor[i]) return actual[i] > floor[i];
  return true;
};

describe('the Node runtime', () => {
  const alternatives = engines.split('||').map((part) => /^\s*\^(\d+\.\d+\.\d+)\s*$/.exec(part)?.[1]);

  it('admits exactly the supported majors, 22 and 24, as caret ranges', () => {
    expect(alternatives.every(Boolean)).toBe(true);
    expect(alternatives.map((floor) => version(floor!)[0])).toEqual([22, 24]);
  });

  it('runs the tests on a Node that engines admits, and in CI on exactly the version scripts/node.sh pins', () => {
    const running = version(process.versions.node);
    expect(alternatives.some((floor) => caretSatisfied(running, version(floor!)))).toBe(true);
    expect(version(pinned!)[0]).toBe(24);
    if (process.env.CI) expect(process.versions.node).toBe(pinned);
  });
  it('loads the native builds of the add-ons, not their JavaScript fallbacks', async () => {
    // keccak and secp256k1 fall back to JavaScript silently when their binding does not load; loading the binding
    // itself fails instead. argon2 and hnswlib-node have no fallback: using them is the check.
    const load = createRequire(__filename);
    expect(() => load('keccak/bindings')).not.toThrow();
    expect(() => load('secp256k1/bindings')).not.toThrow();
    const digest = await hash('correct horse', { memoryCost: 1024, timeCost: 1 });
    expect(await verify(digest, 'correct horse')).toBe(true);
    const index = new HierarchicalNSW('cosine', 3);
    index.initIndex(4);
    index.addPoint([1, 0, 0], 0);
    index.addPoint([0, 1, 0], 1);
    expect(index.searchKnn([0.9, 0.1, 0], 1).neighbors).toEqual([0]);
  });
});
