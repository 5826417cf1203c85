/**
 * One collection's append-only file. Appends are written with a synchronous write syscall, so once `append`
 * returns the bytes are in the OS page cache and survive a kill -9 of the process; `sync` (fdatasync) makes them
 * survive a power loss and runs on an interval or when a client asks for `j: true`. `rewrite` replaces the file
 * atomically (temp file, fsync, rename, fsync directory) for compaction.
 */
import fs from 'node:fs';
import path from 'node:path';
import { scanRecords, type StoredRecord } from './records';

/** Files holding appends until the running command ends (`holdingAppends`), or null outside a command. */
let holding: Set<CollectionFile> | null = null;

/**
 * Runs one command with its appends held: each file's records are written in one write syscall when `run`
 * returns (or throws), before the reply is sent, so an acknowledged write is on disk as before. A command that
 * writes 500 documents makes one syscall per file instead of 500. Commands run synchronously, one at a time, so
 * nothing else sees the held records; a crash inside a command loses only that unacknowledged command's records.
 */
export function holdingAppends<T>(run: () => T): T {
  if (holding) return run();
  const files = new Set<CollectionFile>();
  holding = files;
  let result: T;
  try {
    result = run();
  } catch (error) {
    holding = null;
    // The command's own error is the one reported; its records are still written (they are applied in memory).
    writeHeldRecords(files);
    throw error;
  }
  holding = null;
  writeHeldRecords(files);
  return result;
}

/** Writes every file's held records, even if one fails (disk full); then throws the first failure. */
function writeHeldRecords(files: Set<CollectionFile>): void {
  let failure: unknown;
  for (const file of files) {
    try {
      file.writeHeld();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}

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

  /**
   * Writes `data` at the end of the file; returns once the write syscall has completed, or, inside
   * `holdingAppends`, once the record is queued for the command's single write.
   */
  append(data: Buffer): void {
    this.size += data.length;
    if (holding) {
      holding.add(this);
      this.held.push(data);
      return;
    }
    this.write(data);
  }

  /** Records appended during the running command, not written yet. */
  private held: Buffer[] = [];
  private closed = false;

  /** Writes the records held for the command that just ended, in one syscall. */
  writeHeld(): void {
    if (this.held.length === 0 || this.closed) return;
    const data = this.held.length === 1 ? this.held[0] : Buffer.concat(this.held);
    this.write(data);
    this.held = [];
  }

  private write(data: Buffer): void {
    writeAll(this.fd, data);
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

  /** Atomically replaces the file's content with `chunks` (which hold any records appended but not written yet). */
  rewrite(chunks: Buffer[]): void {
    this.held = [];
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
    this.writeHeld();
    this.closed = true;
    this.sync();
    fs.closeSync(this.fd);
  }

  /** Closes and deletes the file. */
  remove(): void {
    this.held = [];
    this.closed = true;
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
