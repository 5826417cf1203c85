/**
 * A command's records are written in one syscall per file when it ends (`holdingAppends`), and nothing is lost:
 * the records of a command that throws are still written, a file dropped during the command is not written to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CollectionFile, holdingAppends } from '../../../embedded/mongo/storage/collectionFile';
import { encodeRecord, RecordType } from '../../../embedded/mongo/storage/records';
import { makeTempDir } from './mongoTarget';

const record = (n: number) => encodeRecord(RecordType.Put, Buffer.from(`document ${n}`));

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  jest.restoreAllMocks();
  await fs.promises.rm(dir, { recursive: true, force: true });
});

it("writes a command's records in one syscall per file, in order, once the command ends", () => {
  const first = CollectionFile.create(path.join(dir, 'a.coll'));
  const second = CollectionFile.create(path.join(dir, 'b.coll'));
  const writes = jest.spyOn(fs, 'writeSync');
  holdingAppends(() => {
    for (let n = 0; n < 300; n++) (n % 3 === 0 ? second : first).append(record(n));
    expect(writes).not.toHaveBeenCalled();
  });
  expect(writes).toHaveBeenCalledTimes(2);
  first.append(record(300)); // outside a command: written at once
  expect(writes).toHaveBeenCalledTimes(3);
  first.close();
  second.close();
  const { records } = CollectionFile.open(path.join(dir, 'a.coll'));
  expect(records.map((r) => Buffer.from(r.payload).toString())).toEqual(
    [...Array.from({ length: 300 }, (_, n) => n).filter((n) => n % 3 !== 0), 300].map((n) => `document ${n}`),
  );
  expect(CollectionFile.open(path.join(dir, 'b.coll')).records).toHaveLength(100);
});

it('writes the records of a command that throws, and skips a file removed during the command', () => {
  const kept = CollectionFile.create(path.join(dir, 'kept.coll'));
  const dropped = CollectionFile.create(path.join(dir, 'dropped.coll'));
  expect(() =>
    holdingAppends(() => {
      kept.append(record(1));
      dropped.append(record(2));
      dropped.remove();
      throw new Error('duplicate key');
    }),
  ).toThrow('duplicate key');
  kept.close();
  expect(CollectionFile.open(path.join(dir, 'kept.coll')).records).toHaveLength(1);
  expect(fs.existsSync(path.join(dir, 'dropped.coll'))).toBe(false);
});
