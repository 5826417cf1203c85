import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
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
 * also name one file. Skipped folders are never entered (a repository root's node_modules is not walked).
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
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !options.skipFolders.includes(entry.name)) await walk(path);
      else if (entry.isFile() && wanted(entry.name)) found.push(toSource(path));
    }
  };
  await walk(start);
  return found.sort();
}

/** Reads a repository file as a document for its index; binary or non-UTF-8 files throw BRAIN_DOCUMENT_BINARY. */
export async function readSourceDocument(root: string, source: string): Promise<SourceDocument> {
  const text = decodeSourceBytes(await readFile(join(root, source)), source);
  return { source, index: indexForPath(source), text };
}
