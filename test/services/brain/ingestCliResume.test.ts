import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runIngestCli } from '../../../services/brain/ingestCli';
import { REPO_ROOT } from '../../helpers/childProcess';
import { startBrainPlatform } from './brainPlatform';

const FILES = 80;
/** A word only file `i` holds (letters only, so the tokenizer keeps it whole). */
const word = (i: number) =>
  `zorbel${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;

/**
 * `npm run brain:ingest` on a stopped data folder, killed with SIGKILL part-way: a re-run resumes. What the killed
 * run acknowledged is unchanged and skipped, the rest is written, and nothing is held twice (one document and one
 * chunk per file, each file's own word found once).
 */
describe('npm run brain:ingest killed with SIGKILL', () => {
  let repo: string;
  let dataDir: string;

  beforeAll(async () => {
    repo = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-ingest-resume-'));
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-ingest-resume-data-'));
    await fs.mkdir(path.join(repo, 'docs'));
    for (let i = 0; i < FILES; i++)
      await fs.writeFile(
        path.join(repo, 'docs', `page-${String(i).padStart(3, '0')}.md`),
        `# Page ${i}\n\nThe ${word(i)} appears on this page only, beside the lantern and the ferry.\n`,
      );
  });
  afterAll(async () => {
    await fs.rm(repo, { recursive: true, force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('resumes after kill -9 with nothing duplicated and nothing lost', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'services/brain/ingestCli.ts'), '--progress-every', '0', repo],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    let doneBeforeKill = 0;
    child.stderr.on('data', (chunk: Buffer) => {
      for (const match of chunk.toString('utf8').matchAll(/files (\d+)\/\d+/g)) {
        doneBeforeKill = Math.max(doneBeforeKill, Number(match[1]));
        if (doneBeforeKill >= FILES / 4 && child.exitCode === null) child.kill('SIGKILL');
      }
    });
    expect(await exited).toBe('SIGKILL');
    expect(doneBeforeKill).toBeGreaterThanOrEqual(FILES / 4);
    expect(doneBeforeKill).toBeLessThan(FILES);

    const lines: string[] = [];
    const status = await runIngestCli([repo], {
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      cwd: REPO_ROOT,
      print: (line) => lines.push(line),
      progress: { write: () => undefined },
    });
    expect(status).toBe(0);
    const [, created, updated, unchanged] =
      /(\d+) created, (\d+) updated, (\d+) unchanged/.exec(lines[0]) ?? [];
    // Every file acknowledged before the kill is skipped as unchanged; the one in flight, if any, is written again.
    expect(Number(unchanged)).toBeGreaterThanOrEqual(doneBeforeKill);
    expect(Number(created) + Number(updated) + Number(unchanged)).toBe(FILES);

    const brain = await startBrainPlatform({ DATA_DIR: dataDir });
    try {
      const stats = await brain.stats();
      expect([stats.total_documents, stats.total_chunks]).toEqual([FILES, FILES]);
      for (const i of [0, doneBeforeKill - 1, doneBeforeKill, doneBeforeKill + 1, FILES - 1]) {
        const hits = (await brain.search({ query: word(i), strategy: 'fulltext', limit: 5 }).expect(200)).body
          .hits;
        expect(hits.map((h: { source: string }) => h.source)).toEqual([
          `docs/page-${String(i).padStart(3, '0')}.md`,
        ]);
      }
    } finally {
      await brain.stop();
    }
  }, 180_000);
});
