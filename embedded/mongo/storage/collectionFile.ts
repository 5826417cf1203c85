/**
 * One collection's append-only file. Appends are written with a synchronous write syscall, so once `append`
 * returns the bytes are in the OS page cache and survive a kill -9 of the process; `sync` (fdatasync) makes them
 * survive a power loss and runs on an interval or when a client asks for `j: true`. `rewrite` replaces the file
 * atomically (temp file, fsync, rename, fsync directory) for compaction.
 */
import fs from 'node:fs';
import path from 'node:path';
import { scanRecords, type StoredRecord } from './records';

/** An open collection file. */
export class CollectionFile {
  readonly path: string;
  private fd: number;
  private dirty = false;
  /** Current file length in bytes. */
  size: number;

  private constructor(filePath: string, fd: number, size: number) {
    this.path = filePath;
    this.fd = fd;
    this.size = size;
  }

  /** Creates a new empty file (and its directory). */
  static create(filePath: string): CollectionFile {
    fs.mkdirSync(path.dirname(filePath), { recursive: true });
    const fd = fs.openSync(filePath, 'w');
    syncDirectory(path.dirname(filePath));
    return new CollectionFile(filePath, fd, 0);
  }

  /**
   * Opens an existing file and reads its records. A torn or corrupt tail is cut off (the file is truncated to
   * its valid prefix) and reported through `droppedBytes`.
   */
  static open(filePath: string): { file: CollectionFile; records: StoredRecord[]; droppedBytes: number } {
    const data = fs.readFileSync(filePath);
    const { records, validLength } = scanRecords(data);
    const droppedBytes = data.length - validLength;
    if (droppedBytes > 0) fs.truncateSync(filePath, validLength);
    const fd = fs.openSync(filePath, 'a');
    return { file: new CollectionFile(filePath, fd, validLength), records, droppedBytes };
  }

  /** Writes `data` at the end of the file; returns once the write syscall has completed. */
  append(data: Buffer): void {
    writeAll(this.fd, data);
    this.size += data.length;
    this.dirty = true;
    this.rewriting?.tail.push(data);
  }

  /** The background rewrite in progress: appends made meanwhile are copied to its tail. */
  private rewriting: { tail: Buffer[] } | null = null;

  /**
   * Starts replacing the file in the background (compaction of a large collection): the caller writes the live
   * records to the temporary file in slices while appends go on to this file (and to the rewrite's tail); `finish`
   * adds the tail, flushes on libuv's pool, then renames over this file. Until the rename this file is complete,
   * so a crash at any point loses nothing.
   */
  beginRewrite(): BackgroundRewrite {
    const temporary = `${this.path}.compact`;
    const fd = fs.openSync(temporary, 'w');
    const state = { tail: [] as Buffer[] };
    this.rewriting = state;
    let size = 0;
    let open = true;
    const end = () => {
      open = false;
      if (this.rewriting === state) this.rewriting = null;
    };
    return {
      write: (chunks) => {
        for (const chunk of chunks) size += writeAll(fd, chunk);
      },
      finish: (done) => {
        fs.fsync(fd, (error) => {
          if (!open) return;
          try {
            if (error) throw error;
            for (const chunk of state.tail) size += writeAll(fd, chunk);
            fs.fdatasyncSync(fd);
            fs.closeSync(fd);
            this.takeOver(temporary, size);
            end();
            done(undefined);
          } catch (failure) {
            end();
            fs.rmSync(temporary, { force: true });
            done(failure as Error);
          }
        });
      },
      abort: () => {
        if (!open) return;
        end();
        fs.closeSync(fd);
        fs.rmSync(temporary, { force: true });
      },
    };
  }

  /** Flushes written data to stable storage if anything was written since the last sync (blocking: `j: true`). */
  sync(): void {
    if (!this.dirty) return;
    fs.fdatasyncSync(this.fd);
    this.dirty = false;
  }

  /**
   * Starts flushing on libuv's thread pool without blocking the event loop (the periodic flush: acknowledged writes
   * already survive a process crash; this bounds what a power loss can take). A failed flush marks the file dirty
   * again so the next tick retries.
   */
  syncInBackground(): void {
    if (!this.dirty || this.flushing) return;
    this.dirty = false;
    this.flushing = true;
    fs.fdatasync(this.fd, (error) => {
      this.flushing = false;
      if (error) this.dirty = true;
    });
  }

  private flushing = false;

  /** Atomically replaces the file's content with `chunks`. */
  rewrite(chunks: Buffer[]): void {
    const temporary = `${this.path}.compact`;
    const fd = fs.openSync(temporary, 'w');
    let size = 0;
    try {
      for (const chunk of chunks) size += writeAll(fd, chunk);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    this.takeOver(temporary, size);
  }

  /** Renames a flushed replacement file over this one and appends to it from now on. */
  private takeOver(replacement: string, size: number): void {
    fs.closeSync(this.fd);
    fs.renameSync(replacement, this.path);
    syncDirectory(path.dirname(this.path));
    this.fd = fs.openSync(this.path, 'a');
    this.size = size;
    this.dirty = false;
  }

  /** Flushes and closes the file. */
  close(): void {
    this.sync();
    fs.closeSync(this.fd);
  }

  /** Closes and deletes the file. */
  remove(): void {
    fs.closeSync(this.fd);
    fs.rmSync(this.path, { force: true });
    syncDirectory(path.dirname(this.path));
  }
}

/** Writes all of `data` at the file's position; answers its length. */
function writeAll(fd: number, data: Buffer): number {
  let written = 0;
  while (written < data.length) written += fs.writeSync(fd, data, written, data.length - written);
  return data.length;
}

/** A file replacement written beside the live file (see `CollectionFile.beginRewrite`). */
export interface BackgroundRewrite {
  write(chunks: Buffer[]): void;
  /** Adds what was appended meanwhile and renames over the live file; `done` gets an error if it could not. */
  finish(done: (error: Error | undefined) => void): void;
  /** Drops the temporary file (the collection is closing or dropped). */
  abort(): void;
}

/** fsync on a directory makes a create, rename or unlink in it durable. */
function syncDirectory(directory: string): void {
  const fd = fs.openSync(directory, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
