import { AppError } from '../../../platform/errors';
import { IngestQueue } from '../../../services/brain/ingestQueue';

/** A task that finishes when its `finish` is called, recording when it started. */
function buildTask(name: string, started: string[]) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    run: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

describe('IngestQueue', () => {
  it('runs up to `concurrency` at once, queues up to `maxWaiting` in order and refuses the rest at once', async () => {
    const queue = new IngestQueue({ concurrency: 1, maxWaiting: 1, retryAfterSeconds: 7 });
    const started: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => buildTask(name, started));

    const first = queue.run(a.run);
    const second = queue.run(b.run);
    const refused = await queue.run(c.run).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      status: 503,
      code: 'BRAIN_INGEST_BUSY',
      detail: '1 ingests are running and 1 waiting; retry later',
      headers: { 'Retry-After': '7' },
    });
    expect(queue.figures).toEqual({ running: 1, waiting: 1 });
    a.finish();
    expect(await first).toBe('a');
    await new Promise(setImmediate);
    expect(started).toEqual(['a', 'b']);
    expect(queue.figures).toEqual({ running: 1, waiting: 0 });
    b.finish();
    expect(await second).toBe('b');
    expect(queue.figures).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot when an ingest fails', async () => {
    const queue = new IngestQueue({ concurrency: 1, maxWaiting: 0 });
    await expect(queue.run(async () => Promise.reject(new Error('store down')))).rejects.toThrow(
      'store down',
    );
    expect(queue.figures).toEqual({ running: 0, waiting: 0 });
    expect(await queue.run(async () => 'next')).toBe('next');
  });
});
