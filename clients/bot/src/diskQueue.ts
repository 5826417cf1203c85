import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Batches waiting to be delivered, on disk, so nothing is lost while the platform is down or the bot restarts:
 * `<dir>/state.json` holds the next sequence number, `<dir>/pending/<seq>.json` each undelivered batch, and
 * `<dir>/rejected/` the batches the platform refused as invalid (kept for inspection, never resent). Every file
 * is written to a temporary name and renamed, so a crash leaves either the old or the new file.
 */
export class DiskQueue<B extends { seq: number }> {
  private next = 1;

  private constructor(private readonly dir: string) {}

  /** Opens (creating) the queue in `dir`. */
  static async open<B extends { seq: number }>(dir: string): Promise<DiskQueue<B>> {
    const queue = new DiskQueue<B>(dir);
    await mkdir(path.join(dir, 'pending'), { recursive: true });
    await mkdir(path.join(dir, 'rejected'), { recursive: true });
    const state = await readFile(path.join(dir, 'state.json'), 'utf8').catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      },
    );
    queue.next = state ? (JSON.parse(state) as { next: number }).next : 1;
    return queue;
  }

  /** Takes the next sequence number, persisted before it is handed out (a restart never reuses one). */
  async takeSeq(): Promise<number> {
    const seq = this.next;
    this.next += 1;
    await this.write(path.join(this.dir, 'state.json'), { next: this.next });
    return seq;
  }

  /** Stores a batch until it is delivered. */
  async put(batch: B): Promise<void> {
    await this.write(this.file('pending', batch.seq), batch);
  }

  /** The undelivered batches, oldest first. */
  async pending(): Promise<B[]> {
    const names = (await readdir(path.join(this.dir, 'pending'))).filter((name) => /^\d+\.json$/.test(name));
    names.sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10));
    return Promise.all(
      names.map(
        async (name) => JSON.parse(await readFile(path.join(this.dir, 'pending', name), 'utf8')) as B,
      ),
    );
  }

  /** Forgets a delivered batch. */
  async delivered(seq: number): Promise<void> {
    await rm(this.file('pending', seq), { force: true });
  }

  /** Moves a batch the platform refused as invalid aside. */
  async reject(seq: number): Promise<void> {
    await rename(this.file('pending', seq), this.file('rejected', seq));
  }

  private file(folder: 'pending' | 'rejected', seq: number): string {
    return path.join(this.dir, folder, `${String(seq).padStart(12, '0')}.json`);
  }

  private async write(file: string, value: unknown): Promise<void> {
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(value));
    await rename(temporary, file);
  }
}
