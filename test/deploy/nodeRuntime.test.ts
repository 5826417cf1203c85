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

describe('the Node runtime', () => {
  it('is a supported major (22 or 24), and in CI exactly the version scripts/node.sh pins', () => {
    const [major] = process.versions.node.split('.');
    expect(['22', '24']).toContain(major);
    if (process.env.CI) expect(process.versions.node).toBe(pinned);
  });

  it('admits the supported majors in engines, and no older one', () => {
    expect(engines).toBe('^22.12.0 || ^24.0.0');
    expect(pinned?.split('.')[0]).toBe('24');
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
