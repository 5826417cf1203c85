import fs from 'node:fs';
import path from 'node:path';

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  engines: { node: string };
};

/** `major.minor.patch` as a comparable tuple. */
const version = (text: string) => text.replace(/^v/, '').split('.').map(Number);
const atLeast = (actual: number[], floor: number[]) => {
  for (let i = 0; i < 3; i += 1) if (actual[i] !== floor[i]) return actual[i] > floor[i];
  return true;
};

describe('package.json engines', () => {
  it('is a lower bound the Node running the tests (what CI runs) satisfies', () => {
    const floor = /^>=\s*(\d+\.\d+\.\d+)$/.exec(pkg.engines.node);
    expect(floor).not.toBeNull();
    expect(atLeast(version(process.version), version(floor![1]))).toBe(true);
  });
});
