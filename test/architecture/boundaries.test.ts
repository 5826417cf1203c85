import fs from 'node:fs';
import path from 'node:path';
import { circlesOf, importsOf, root, serviceAreaOf, sourceFiles } from './sourceImports';

/** STYLE.md: a folder of look-alike files is split by responsibility; models/ (one file per collection) is exempt. */
const MAX_FILES_PER_FOLDER = 25;
const EXEMPT_FOLDERS = new Set(['models']);

describe('boundaries between areas (docs/ARCHITECTURE.md, "Areas and their public faces")', () => {
  const files = sourceFiles();
  const imports = files.flatMap(importsOf);

  it('reads the source', () => {
    expect(files.length).toBeGreaterThan(500);
    expect(imports.length).toBeGreaterThan(2000);
  });

  it('reaches another service area only through its index.ts (type imports too)', () => {
    const deep = imports
      .filter(({ from, to }) => {
        const area = serviceAreaOf(from);
        const target = serviceAreaOf(to);
        return area && target && area !== target && to !== `services/${target}/index.ts`;
      })
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(deep).toEqual([]);
  });

  it('finds circles of any length, and nothing else', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a', 'd']],
      ['e', []],
    ]);
    expect(circlesOf(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('has no circle of value imports (type-only imports are erased and left out)', () => {
    const edges = new Map<string, string[]>(files.map((file) => [file, []]));
    for (const { from, to, typeOnly } of imports) if (!typeOnly) edges.get(from)!.push(to);
    expect(circlesOf(edges)).toEqual([]);
  });

  it(`holds at most ${MAX_FILES_PER_FOLDER} source files directly in any folder but models/`, () => {
    const folders = [...new Set(files.map((file) => path.posix.dirname(file)))];
    const crowded = folders
      .filter((folder) => !EXEMPT_FOLDERS.has(folder))
      .map((folder) => ({
        folder,
        files: fs.readdirSync(path.join(root, folder)).filter((name) => name.endsWith('.ts')).length,
      }))
      .filter(({ files: count }) => count > MAX_FILES_PER_FOLDER);
    expect(crowded).toEqual([]);
  });
});
