import fs from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');
/** Dependencies, build output, data and generated code (`clients/api/generated/`) are not ours to size. */
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'coverage', '.git', '.cache', 'generated']);
const SOURCE = /\.(ts|tsx|mts|js|mjs|cjs|sol)$/;
/** STYLE.md: files of roughly 50-200 lines; past 400, split by responsibility. */
const MAX_LINES = 400;

function sourceFiles(dir = root): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

describe('file size', () => {
  it(`no source file is over ${MAX_LINES} lines`, () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const tooLong = files
      .map((file) => ({
        file: path.relative(root, file),
        lines: fs.readFileSync(file, 'utf8').split('\n').length - 1,
      }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });
});
