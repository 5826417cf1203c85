import { backoffDelayMs, withRetry } from '../../../ai/embeddings/retry';

describe('withRetry', () => {
  const always = () => true;

  it('waits 500 ms then 1000 ms between 3 attempts and rethrows the last error', async () => {
    const waits: number[] = [];
    const operation = jest.fn((attempt: number) => Promise.reject(new Error(`fail ${attempt}`)));

    await expect(
      withRetry(operation, always, {
        attempts: 3,
        baseDelayMs: 500,
        sleep: async (ms) => void waits.push(ms),
      }),
    ).rejects.toThrow('fail 3');

    expect(operation).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([500, 1000]);
  });

  it('returns the first success', async () => {
    const operation = jest.fn((attempt: number) =>
      attempt < 2 ? Promise.reject(new Error('no')) : Promise.resolve(attempt),
    );

    await expect(
      withRetry(operation, always, { attempts: 3, baseDelayMs: 500, sleep: async () => undefined }),
    ).resolves.toBe(2);
  });

  it('stops at once on an error that should not be retried', async () => {
    const operation = jest.fn(() => Promise.reject(new Error('bad request')));

    await expect(
      withRetry(operation, () => false, { attempts: 3, baseDelayMs: 500, sleep: async () => undefined }),
    ).rejects.toThrow('bad request');
    expect(operation).toHaveBeenCalledTimes(1);
  });

  it('doubles the delay per attempt', () => {
    expect([1, 2, 3, 4].map((attempt) => backoffDelayMs(attempt, 500))).toEqual([500, 1000, 2000, 4000]);
  });
});
