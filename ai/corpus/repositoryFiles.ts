import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { IndexName, SourceDocument } from '../../models/corpusRecords';
import { decodeSourceBytes } from '../chunking/validation';

/** File selection for folder ingestion. Defaults: .md/.ts/.tsx/.js/.mjs/.cjs/.json/.yml/.yaml/.txt/.sol, skipping build and dependency folders and lock files. */
export interface FolderScanOptions {
  extensions: readonly string[];
  skipFolders: readonly string[];
  /** Generated files with nothing to search for (lock files). */
  skipFiles: readonly string[];
}

export const DEFAULT_FOLDER_SCAN: FolderScanOptions = {
  extensions: ['.md', '.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.yml', '.yaml', '.txt', '.sol'],
  skipFolders: ['node_modules', 'dist', 'coverage', 'data', '.git', '.cache'],
  skipFiles: ['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml'],
};

/** The index a repository file belongs to: tests under `test/` or named `*.test.*`, markdown docs, the rest code. */
export function indexForPath(path: string): IndexName {
  if (path.startsWith('test/') || path.startsWith('tests/') || /\.(test|spec)\.[^/]+$/.test(path))
    return 'tests';
  return /\.(md|markdown|mdx|txt)$/.test(path) ? 'docs' : 'code';
}

/**
 * Repository-relative, forward-slash paths of the files under `folder` worth ingesting, sorted; `folder` may
 * also name one file. Skipped folders are never entered (a repository root's node_modules is not walked), and
 * what the .gitignore files of the root and of the folders on the way say to ignore is left out.
 */
export async function listSourceFiles(
  root: string,
  folder = '.',
  options = DEFAULT_FOLDER_SCAN,
): Promise<string[]> {
  const wanted = (name: string) =>
    options.extensions.some((ext) => name.endsWith(ext)) &&
    !options.skipFiles.some((file) => name.endsWith(file));
  const toSource = (path: string) => relative(root, path).split('\\').join('/');
  const start = join(root, folder);
  if ((await stat(start)).isFile()) return wanted(start) ? [toSource(start)] : [];
  const found: string[] = [];
  // The .gitignore files from the root down to each folder walked, each matching paths relative to its folder.
  type Rule = { dir: string; matcher: Ignore };
  const ignored = (rules: readonly Rule[], path: string, isDir: boolean) =>
    rules.some(({ dir, matcher }) => {
      const rel = relative(dir, path).split('\\').join('/');
      return rel !== '' && !rel.startsWith('..') && matcher.ignores(isDir ? `${rel}/` : rel);
    });
  const withRules = async (rules: readonly Rule[], dir: string): Promise<readonly Rule[]> => {
    const text = await readFile(join(dir, '.gitignore'), 'utf8').catch(() => undefined);
    return text === undefined ? rules : [...rules, { dir, matcher: ignore().add(text) }];
  };
  // Those of the folders between the root and the start of the walk apply too.
  let above: readonly Rule[] = [];
  const steps = relative(root, start)
    .split(/[\\/]/)
    .filter((step) => step && step !== '.');
  for (let dir = root, i = 0; i < steps.length; dir = join(dir, steps[i++]))
    above = await withRules(above, dir);
  const walk = async (dir: string, inherited: readonly Rule[]): Promise<void> => {
    const rules = await withRules(inherited, dir);
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !options.skipFolders.includes(entry.name) && !ignored(rules, path, true))
        await walk(path, rules);
      else if (entry.isFile() && wanted(entry.name) && !ignored(rules, path, false))
        found.push(toSource(path));
    }
  };
  await walk(start, above);
  return found.sort();
}

/** Reads a repository file as a document for its index; binary or non-UTF-8 files throw BRAIN_DOCUMENT_BINARY. */
export async function readSourceDocument(root: string, source: string): Promise<SourceDocument> {
  const text = decodeSourceBytes(await readFile(join(root, source)), source);
  return { source, index: indexForPath(source), text };
}
