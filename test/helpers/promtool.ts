import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Path of Prometheus's `promtool`, installing Debian's `prometheus` package first when it is absent (the tests run
 * as root), as `ensureNginx` does for nginx: a failed install refreshes the package lists and retries; if promtool
 * still cannot be had this throws, so the alert-rule suite fails instead of skipping.
 */
export function ensurePromtool(): string {
  const find = () =>
    ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((candidate) => fs.existsSync(candidate));
  const existing = find();
  if (existing) return existing;
  const aptGet = (...args: string[]) =>
    execFileSync('apt-get', args, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: 'ignore',
    });
  const install = ['install', '-y', '-q', '--no-install-recommends', 'prometheus'];
  try {
    aptGet(...install);
  } catch {
    aptGet('update', '-q');
    aptGet(...install);
  }
  const installed = find();
  if (!installed) throw new Error('promtool is not installed and apt-get could not install prometheus');
  return installed;
}

/** Runs promtool; resolves with its exit status and combined output (never throws on a non-zero exit). */
export function runPromtool(binary: string, args: string[], cwd: string): { status: number; output: string } {
  try {
    const output = execFileSync(binary, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return { status: 0, output };
  } catch (error) {
    const failed = error as { status?: number; stdout?: string; stderr?: string };
    return { status: failed.status ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}
