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
    let written = 0;
    while (written < data.length) written += fs.writeSync(this.fd, data, written, data.length - written);
    this.size += data.length;
    this.dirty = true;
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
      for (const chunk of chunks) {
        let written = 0;
        while (written < chunk.length) written += fs.writeSync(fd, chunk, written, chunk.length - written);
        size += chunk.length;
      }
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.closeSync(this.fd);
    fs.renameSync(temporary, this.path);
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

/** fsync on a directory makes a create, rename or unlink in it durable. */
function syncDirectory(directory: string): void {
  const fd = fs.openSync(directory, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
