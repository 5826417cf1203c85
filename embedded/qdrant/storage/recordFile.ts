import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * Framing shared by the write-ahead log and snapshots: each record is `[u32 length][u32 crc32][body]`
 * (little-endian). A crash can leave a torn last record; readers stop at the first record whose length or
 * checksum does not hold, and writers cut the file back to that point before appending.
 */
const HEADER_BYTES = 8;

/** Frames one record body. */
export function frameRecord(body: Buffer): Buffer {
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32LE(body.length, 0);
  header.writeUInt32LE(crc32(body), 4);
  return Buffer.concat([header, body]);
}

/** The intact records of a file (none when it does not exist) and the byte length they cover. */
export function readRecords(file: string): { bodies: Buffer[]; validBytes: number } {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { bodies: [], validBytes: 0 };
    throw error;
  }
  const bodies: Buffer[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= data.length) {
    const length = data.readUInt32LE(offset);
    const end = offset + HEADER_BYTES + length;
    if (end > data.length) break;
    const body = data.subarray(offset + HEADER_BYTES, end);
    if (crc32(body) !== data.readUInt32LE(offset + 4)) break;
    bodies.push(body);
    offset = end;
  }
  return { bodies, validBytes: offset };
}

/**
 * An append-only record file. `append` hands the bytes to the OS with a synchronous write before it returns,
 * so an acknowledged write survives the process being killed; `fsync: true` also forces them to the disk.
 */
export class RecordAppender {
  private fd: number;
  private bytes: number;

  constructor(
    private readonly file: string,
    validBytes: number,
    private readonly fsync: boolean,
  ) {
    this.fd = fs.openSync(file, fs.existsSync(file) ? 'r+' : 'w+');
    fs.ftruncateSync(this.fd, validBytes);
    this.bytes = validBytes;
  }

  /** Bytes currently in the file. */
  get size(): number {
    return this.bytes;
  }

  append(body: Buffer): void {
    const record = frameRecord(body);
    let written = 0;
    while (written < record.length) {
      written += fs.writeSync(this.fd, record, written, record.length - written, this.bytes + written);
    }
    this.bytes += record.length;
    if (this.fsync) fs.fsyncSync(this.fd);
  }

  /**
   * Removes the file's first `bytes` (the records a snapshot folded in) and keeps the ones appended after them: they
   * are copied to a new file that replaces this one by a durable rename, so a crash leaves either file whole.
   */
  dropBefore(bytes: number): void {
    if (bytes >= this.bytes) return this.reset();
    if (bytes === 0) return;
    const tail = Buffer.allocUnsafe(this.bytes - bytes);
    for (let read = 0; read < tail.length;) {
      read += fs.readSync(this.fd, tail, read, tail.length - read, bytes + read);
    }
    const temp = `${this.file}.tmp`;
    const fd = fs.openSync(temp, 'w');
    try {
      for (let written = 0; written < tail.length;) written += fs.writeSync(fd, tail, written);
      if (this.fsync) fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    renameDurably(temp, this.file);
    fs.closeSync(this.fd);
    this.fd = fs.openSync(this.file, 'r+');
    this.bytes = tail.length;
  }

  /** Empties the file (after a snapshot made its records redundant). */
  reset(): void {
    fs.ftruncateSync(this.fd, 0);
    this.bytes = 0;
    if (this.fsync) fs.fsyncSync(this.fd);
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** Writes a whole file of records atomically: temp file, fsync, rename, fsync of the directory. */
export function writeRecordFileAtomically(file: string, bodies: Iterable<Buffer>): void {
  const temp = `${file}.tmp`;
  const fd = fs.openSync(temp, 'w');
  try {
    for (const body of bodies) {
      const record = frameRecord(body);
      let written = 0;
      while (written < record.length) written += fs.writeSync(fd, record, written);
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  renameDurably(temp, file);
}

/**
 * `writeRecordFileAtomically` without holding the event loop: each body is taken from `bodies` (where the caller's
 * encoding runs) and written asynchronously, one per task, to `<file>.bg.tmp`, then fsynced and renamed over `file`.
 * Resolves false and removes the temp file, leaving `file` as it was, once `abandoned()` is true: it is checked
 * between bodies and just before the rename, which is synchronous, so nothing can replace `file` in between.
 */
export async function writeRecordFileInSlices(
  file: string,
  bodies: Iterable<Buffer>,
  abandoned: () => boolean,
): Promise<boolean> {
  const temp = `${file}.bg.tmp`;
  const handle = await fs.promises.open(temp, 'w');
  let complete = false;
  try {
    for (const body of bodies) {
      if (abandoned()) return false;
      const record = frameRecord(body);
      for (let written = 0; written < record.length;) {
        written += (await handle.write(record, written, record.length - written)).bytesWritten;
      }
    }
    await handle.sync();
    complete = true;
  } finally {
    await handle.close();
    if (!complete) await fs.promises.rm(temp, { force: true });
  }
  if (abandoned()) {
    await fs.promises.rm(temp, { force: true });
    return false;
  }
  renameDurably(temp, file);
  return true;
}

/** Renames and fsyncs the parent directory so the rename itself survives a crash. */
export function renameDurably(from: string, to: string): void {
  fs.renameSync(from, to);
  const dir = fs.openSync(path.dirname(to), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}
