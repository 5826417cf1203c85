import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { IndexName, SourceDocument } from '../chunking/records';
import { decodeSourceBytes } from '../chunking/validation';

/** File selection for folder ingestion. Defaults: .md/.ts/.tsx/.js/.mjs/.cjs/.json/.yml/.yaml/.txt/.sol, skipping build and dependency folders. */
export interface FolderScanOptions {
  extensions: readonly string[];
  skipFolders: readonly string[];
}

export const DEFAULT_FOLDER_SCAN: FolderScanOptions = {
  extensions: ['.md', '.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.yml', '.yaml', '.txt', '.sol'],
  skipFolders: ['node_modules', 'dist', 'coverage', 'data', '.git'],
};

/** The index a repository file belongs to: tests under `test/` or named `*.test.*`, markdown docs, the rest code. */
export function indexForPath(path: string): IndexName {
  if (path.startsWith('test/') || path.startsWith('tests/') || /\.(test|spec)\.[^/]+$/.test(path))
    return 'tests';
  return /\.(md|markdown|mdx|txt)$/.test(path) ? 'docs' : 'code';
}

/** Repository-relative, forward-slash paths of the files under `folder` worth ingesting, sorted. */
export async function listSourceFiles(
  root: string,
  folder = '.',
  options = DEFAULT_FOLDER_SCAN,
): Promise<string[]> {
  const entries = await readdir(join(root, folder), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && options.extensions.some((ext) => entry.name.endsWith(ext)))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter((path) => !path.split('/').some((part) => options.skipFolders.includes(part)))
    .sort();
}

/** Reads a repository file as a document for its index; binary or non-UTF-8 files throw BRAIN_DOCUMENT_BINARY. */
export async function readSourceDocument(root: string, source: string): Promise<SourceDocument> {
  const text = decodeSourceBytes(await readFile(join(root, source)), source);
  return { source, index: indexForPath(source), text };
}
