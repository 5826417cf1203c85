import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../..');

export interface RunningServer {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** How the server runs: `main.ts` through tsx (development), or the compiled `dist/main.js` (`npm start`). */
export type ServerEntry = 'source' | 'dist';

/** Runs the server as a separate process with the given environment and arguments. */
export function spawnServer(
  env: Record<string, string>,
  args: string[] = [],
  entry: ServerEntry = 'source',
): RunningServer {
  const main =
    entry === 'source'
      ? ['--import', 'tsx', path.join(REPO_ROOT, 'main.ts')]
      : [path.join(REPO_ROOT, 'dist', 'main.js')];
  const child = spawn(process.execPath, [...main, ...args], {
    cwd: REPO_ROOT,
    // NODE_ENV=test like the in-process test platform (development derives SIWE and outbox defaults), unless set.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      BRAIN_SEED_ON_START: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) =>
    stdout.push(...chunk.toString('utf8').split('\n').filter(Boolean)),
  );
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout, stderr, exit };
}

/** Resolves with the first JSON log line satisfying `predicate`, or rejects when the process exits first. */
export function waitForLog(
  server: RunningServer,
  predicate: (line: Record<string, unknown>) => boolean,
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const scan = () => {
      for (; seen < server.stdout.length; seen++) {
        let parsed: Record<string, unknown>;
        try {
          parsed = JSON.parse(server.stdout[seen] ?? '') as Record<string, unknown>;
        } catch {
          continue;
        }
        if (predicate(parsed)) return finish(() => resolve(parsed));
      }
    };
    const timer = setTimeout(
      () => finish(() => reject(new Error(`no matching log line in ${timeoutMs} ms`))),
      timeoutMs,
    );
    const poll = setInterval(scan, 20);
    server.exit.then(({ code }) =>
      finish(() => reject(new Error(`server exited (${code}): ${server.stderr.join('')}`))),
    );
    function finish(settle: () => void) {
      clearTimeout(timer);
      clearInterval(poll);
      settle();
    }
  });
}
