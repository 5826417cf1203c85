/** A store the readiness probe asks: `check` resolves when the store answers, rejects otherwise. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /**
   * What stands in while this store is down (Redis: in-process cache, limiter, nonce store). A store with a
   * fallback that fails makes readiness `degraded` (still serving), not `not ready`.
   */
  fallback?: string;
}

export interface CheckResult {
  name: string;
  status: 'up' | 'down';
  /** Set on a down store that has an in-process fallback: what serves meanwhile. */
  fallback?: string;
  latencyMs: number;
  /** Why it is down, in words safe for a response: `no answer within N ms` or `unreachable`. */
  error?: string;
}

/** A failed check's own error (whose text may name the store's host, port or URL): for the log, never a body. */
export function failureCause(result: CheckResult): unknown {
  return (result as { cause?: unknown }).cause;
}

class CheckTimeout extends Error {}

/**
 * Runs every check concurrently, each bounded by `timeoutMs`; never throws. A down result carries a safe reason in
 * `error` and the check's own error as a non-enumerable `cause` (see `failureCause`).
 */
export async function runChecks(checks: ReadinessCheck[], timeoutMs: number): Promise<CheckResult[]> {
  return Promise.all(
    checks.map(async ({ name, check, fallback }) => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return { name, status: 'up' as const, latencyMs: Math.round(performance.now() - started) };
      } catch (error) {
        const result: CheckResult = {
          name,
          status: 'down' as const,
          latencyMs: Math.round(performance.now() - started),
          error: error instanceof CheckTimeout ? error.message : 'unreachable',
          ...(fallback ? { fallback } : {}),
        };
        return Object.defineProperty(result, 'cause', { value: error, enumerable: false });
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}

/** Overall readiness: `ready` when every store answered, `degraded` when only stores with a fallback failed. */
export type ReadinessStatus = 'ready' | 'degraded' | 'not_ready';

/** Classifies check results (see `ReadinessStatus`). */
export function readinessOf(results: CheckResult[]): ReadinessStatus {
  const down = results.filter((result) => result.status === 'down');
  if (down.length === 0) return 'ready';
  return down.every((result) => result.fallback) ? 'degraded' : 'not_ready';
}
