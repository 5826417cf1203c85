/**
 * Polls `read` every `everyMs` until it answers `expected` (deep-equal by JSON) and answers that value; throws with
 * the last value after `timeoutMs`. For effects the platform applies asynchronously after a request returns.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  expected: T,
  timeoutMs = 5000,
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected)) {
    if (Date.now() > deadline) {
      throw new Error(
        `still ${JSON.stringify(last)} after ${timeoutMs} ms, expected ${JSON.stringify(expected)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    last = await read();
  }
  return last;
}
