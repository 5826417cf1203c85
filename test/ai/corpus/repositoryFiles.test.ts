import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexForPath, listSourceFiles, readSourceDocument } from '../../../ai/corpus/repositoryFiles';

describe('repository files', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'brain-files-'));
    await mkdir(join(root, 'docs'));
    await mkdir(join(root, 'node_modules/pkg'), { recursive: true });
    await mkdir(join(root, '.cache/node-v24/share'), { recursive: true });
    await mkdir(join(root, 'test'));
    await writeFile(join(root, 'docs/Guide.md'), '# Guide\n');
    await writeFile(join(root, 'main.ts'), 'export {};\n');
    await writeFile(join(root, 'test/main.test.ts'), "it('runs', () => {});\n");
    await writeFile(join(root, 'node_modules/pkg/index.js'), 'module.exports = 1;\n');
    await writeFile(join(root, '.cache/node-v24/CHANGELOG.md'), '# Node.js changelog\n');
    await writeFile(join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00]));
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  it('lists ingestible files, skipping dependencies, the tool cache and unknown extensions', async () => {
    expect(await listSourceFiles(root)).toEqual(['docs/Guide.md', 'main.ts', 'test/main.test.ts']);
  });

  it('leaves out what the .gitignore files of the root and of nested folders ignore', async () => {
    await mkdir(join(root, 'docs/drafts'));
    await mkdir(join(root, 'generated'));
    await writeFile(join(root, '.gitignore'), 'generated/\n*.local.md\n');
    await writeFile(join(root, 'docs/.gitignore'), 'drafts/\n');
    await writeFile(join(root, 'docs/drafts/Plan.md'), '# Plan\n');
    await writeFile(join(root, 'docs/notes.local.md'), '# Mine\n');
    await writeFile(join(root, 'generated/out.ts'), 'export {};\n');

    expect(await listSourceFiles(root)).toEqual(['docs/Guide.md', 'main.ts', 'test/main.test.ts']);
    // Walking a subfolder still applies the root's rules.
    await writeFile(join(root, 'docs/other.local.md'), '# Mine too\n');
    expect(await listSourceFiles(root, 'docs')).toEqual(['docs/Guide.md']);
  });

  it('reads a file as a document of the index its path implies', async () => {
    expect(await readSourceDocument(root, 'test/main.test.ts')).toEqual({
      source: 'test/main.test.ts',
      index: 'tests',
      text: "it('runs', () => {});\n",
    });
  });

  it('rejects binary files', async () => {
    await expect(readSourceDocument(root, 'logo.png')).rejects.toMatchObject({
      code: 'BRAIN_DOCUMENT_BINARY',
    });
  });

  it.each([
    ['docs/SPEC.md', 'docs'],
    ['ai/cache/searchCache.ts', 'code'],
    ['test/ai/x.test.ts', 'tests'],
    ['services/brain/router.spec.ts', 'tests'],
  ])('puts %s in %s', (path, index) => {
    expect(indexForPath(path)).toBe(index);
  });
});
