/** A store the readiness probe asks: `check` resolves when the store answers, rejects otherwise. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export interface CheckResult {
  name: string;
  status: 'up' | 'down';
  latencyMs: number;
  error?: string;
}

/** Runs every check concurrently, each bounded by `timeoutMs`; never throws. */
export async function runChecks(checks: ReadinessCheck[], timeoutMs: number): Promise<CheckResult[]> {
  return Promise.all(
    checks.map(async ({ name, check }) => {
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        return { name, status: 'up' as const, latencyMs: Math.round(performance.now() - started) };
      } catch (error) {
        return {
          name,
          status: 'down' as const,
          latencyMs: Math.round(performance.now() - started),
          error: error instanceof Error ? error.message : String(error),
        };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
