import fs from 'node:fs';
import path from 'node:path';

const LOCK_FILE = 'LOCK';

/**
 * Claims an embedded engine's data directory (MongoDB's or Qdrant's) for this process: two engines appending to
 * the same files would corrupt them. `<dir>/LOCK` holds the owner's pid; a lock left by a process that no longer
 * exists (kill -9) is taken over. Creates `dir` when missing. Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(fs.readFileSync(file, 'utf8'));
      if (owner === process.pid || isAlive(owner)) {
        throw new Error(`data directory ${dir} is in use by process ${owner} (lock file ${file})`, {
          cause: error,
        });
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock data directory ${dir}`);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
