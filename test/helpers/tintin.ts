import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const TINTIN = '/usr/games/tt++';

/**
 * Debian's TinTin++ and tmux (which gives it the terminal it needs), installing the `tintin++` and `tmux` packages
 * first when either is absent (the tests run as root). When the first install fails (a fresh image has no package
 * lists), the lists are refreshed and the install retried; if they still cannot be had, this throws, so the suite
 * fails instead of skipping.
 */
export function ensureTintin(): { tintin: string; tmux: string } {
  const tmux = () => ['/usr/bin/tmux', '/usr/local/bin/tmux'].find((candidate) => fs.existsSync(candidate));
  if (fs.existsSync(TINTIN) && tmux()) return { tintin: TINTIN, tmux: tmux()! };
  const aptGet = (...args: string[]) =>
    execFileSync('apt-get', args, {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: 'ignore',
    });
  try {
    aptGet('install', '-y', '-q', 'tintin++', 'tmux');
  } catch {
    aptGet('update', '-q');
    aptGet('install', '-y', '-q', 'tintin++', 'tmux');
  }
  const installed = tmux();
  if (!fs.existsSync(TINTIN) || !installed) throw new Error('apt-get could not install tintin++ and tmux');
  return { tintin: TINTIN, tmux: installed };
}

/** A TinTin++ running in a detached tmux session on its own tmux server socket. */
export interface RunningTintin {
  /** Its working directory (scripts, logs and map files). */
  dir: string;
  /** Types `line` and Enter into TinTin++. */
  type(line: string): void;
  /** What the terminal shows now. */
  screen(): string;
  stop(): void;
}

/**
 * Starts `tt++ -G <script>` in a 120x40 tmux window; `script` is given the temporary directory TinTin++ runs in
 * (for its logs and map files).
 */
export function startTintin(script: (dir: string) => string): RunningTintin {
  const { tintin, tmux } = ensureTintin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-tintin-'));
  const socket = path.join(dir, 'tmux.sock');
  // A TinTin++ script file must start with its command character.
  fs.writeFileSync(path.join(dir, 'start.tin'), script(dir).trim() + '\n');
  const run = (...args: string[]) => execFileSync(tmux, ['-S', socket, ...args], { encoding: 'utf8' });
  run('new-session', '-d', '-s', 'tt', '-x', '120', '-y', '40', '-c', dir, `${tintin} -G ${dir}/start.tin`);
  return {
    dir,
    type: (line) => {
      run('send-keys', '-t', 'tt', '-l', line);
      run('send-keys', '-t', 'tt', 'Enter');
    },
    screen: () => run('capture-pane', '-p', '-t', 'tt'),
    stop: () => {
      try {
        run('kill-server');
      } catch {
        // Already gone (TinTin++ exited and took the tmux server with it).
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
