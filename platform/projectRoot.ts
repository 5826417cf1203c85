import fs from 'node:fs';
import path from 'node:path';

/**
 * The nearest folder at or above `from` that holds a `package.json`. Code runs both from source (`tsx`, jest) and
 * compiled under `dist/` (`npm start`), so paths to the repository's data (the world, ABIs) are resolved from the
 * package root rather than from a fixed number of `..` steps.
 */
export function findProjectRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json at or above ${from}`);
  }
}

/** This package's root folder, wherever the code runs from. */
export const PROJECT_ROOT = findProjectRoot(__dirname);
