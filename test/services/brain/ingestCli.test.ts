import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runIngestCli } from '../../../services/brain/ingestCli';
import { SERVICE_TOKEN, startBrainPlatform } from './brainPlatform';

async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await fs.writeFile(path.join(root, name), content);
  }
}

describe('npm run brain:ingest', () => {
  let repo: string;
  let dataDir: string;

  beforeEach(async () => {
    repo = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-brain-repo-'));
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-brain-data-'));
    await writeFiles(repo, {
      'docs/guide.md': '# Guide\n\nThe quokka service answers questions.\n',
      'src/quokka.ts':
        '/** Greets a quokka. */\nexport function greetQuokka(): string {\n  return "hi";\n}\n',
      'test/quokka.test.ts': "it('greets a quokka', () => {\n  expect(1).toBe(1);\n});\n",
      'docs/logo.txt': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a]),
      'node_modules/left-pad/index.js': 'module.exports = function quokka() {};\n',
    });
  });
  afterEach(async () => {
    await fs.rm(repo, { recursive: true, force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  /** Progress the last run wrote (as to a pipe: plain lines). */
  let progress: string[] = [];
  async function run(args: string[]): Promise<{ status: number; lines: string[] }> {
    const lines: string[] = [];
    progress = [];
    const status = await runIngestCli(args, {
      env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      cwd: repo,
      print: (line) => lines.push(line),
      progress: { write: (text: string) => progress.push(text) },
    });
    return { status, lines };
  }

  it('ingests a folder into the embedded stores the platform then serves, skipping binary files', async () => {
    const { status, lines } = await run(['--', '.']);

    expect(status).toBe(0);
    expect(lines).toEqual([
      '.: 3 files (3 created, 0 updated, 0 unchanged), 3 chunks, 0 removed, 1 skipped',
      '  skipped docs/logo.txt: BRAIN_DOCUMENT_BINARY (binary content)',
      'vectors: 3 chunks embedded',
    ]);
    const brain = await startBrainPlatform({ DATA_DIR: dataDir });
    try {
      expect((await brain.stats()).documents).toEqual({ docs: 1, code: 1, tests: 1 });
      for (const strategy of ['fulltext', 'semantic']) {
        const res = await brain.search({ query: 'quokka', strategy, limit: 5 }).expect(200);
        expect(res.body.hits.map((h: { source: string }) => h.source).sort()).toEqual([
          'docs/guide.md',
          'src/quokka.ts',
          'test/quokka.test.ts',
        ]);
      }
    } finally {
      await brain.stop();
    }
  });

  it('re-ingests only what changed and names sources relative to the repository', async () => {
    await run(['.']);
    await fs.writeFile(
      path.join(repo, 'docs/guide.md'),
      '# Guide\n\nThe quokka service answers every question.\n',
    );

    const { status, lines } = await run(['docs', 'src/quokka.ts']);

    expect(status).toBe(0);
    expect(lines).toEqual([
      'docs: 1 file (0 created, 1 updated, 0 unchanged), 1 chunks, 1 removed, 1 skipped',
      '  skipped docs/logo.txt: BRAIN_DOCUMENT_BINARY (binary content)',
      'src/quokka.ts: 1 file (0 created, 0 updated, 1 unchanged), 1 chunks, 0 removed, 0 skipped',
      'vectors: 1 chunks embedded',
    ]);
  });

  it('writes nothing on a re-run over an unchanged tree, and says so', async () => {
    await writeFiles(repo, {
      '.gitignore': 'build/\n',
      'build/out.md': '# Generated\n\nNot for the brain.\n',
    });
    const first = await run(['.']);
    const again = await run(['.']);

    expect(first.lines[0]).toBe(
      '.: 3 files (3 created, 0 updated, 0 unchanged), 3 chunks, 0 removed, 1 skipped',
    );
    expect(again).toEqual({
      status: 0,
      lines: [
        '.: 3 files (0 created, 0 updated, 3 unchanged), 3 chunks, 0 removed, 1 skipped',
        '  skipped docs/logo.txt: BRAIN_DOCUMENT_BINARY (binary content)',
        'nothing to write: all 3 files are unchanged',
        'vectors: 0 chunks embedded',
      ],
    });
  });

  it('ingests into a running server over HTTP with the service token, and a re-run writes nothing', async () => {
    const brain = await startBrainPlatform();
    try {
      const lines: string[] = [];
      const over = (args: string[]) =>
        runIngestCli(args, {
          env: { BRAIN_SERVICE_TOKEN: SERVICE_TOKEN, LOG_LEVEL: 'silent' },
          cwd: repo,
          print: (line) => lines.push(line),
          progress: { write: () => undefined },
        });

      expect(await over(['--url', brain.url, '.'])).toBe(0);
      expect(await over(['--url', brain.url, '.'])).toBe(0);

      expect(lines).toEqual([
        '.: 3 files (3 created, 0 updated, 0 unchanged), 3 chunks, 0 removed, 1 skipped',
        '  skipped docs/logo.txt: BRAIN_DOCUMENT_BINARY (binary content)',
        '.: 3 files (0 created, 0 updated, 3 unchanged), 3 chunks, 0 removed, 1 skipped',
        '  skipped docs/logo.txt: BRAIN_DOCUMENT_BINARY (binary content)',
        'nothing to write: all 3 files are unchanged',
      ]);
      const hits = (await brain.search({ query: 'quokka', strategy: 'fulltext' }).expect(200)).body.hits;
      expect(hits.map((h: { source: string }) => h.source).sort()).toEqual([
        'docs/guide.md',
        'src/quokka.ts',
        'test/quokka.test.ts',
      ]);
    } finally {
      await brain.stop();
    }
  });

  it('prints its usage without a path or with an option it cannot read', async () => {
    const usage = {
      status: 2,
      lines: [
        'usage: npm run brain:ingest -- [--url <server>] [--progress-every <seconds>] <path> [<path> ...]',
      ],
    };
    expect(await run([])).toEqual(usage);
    expect(await run(['--url'])).toEqual(usage);
    expect(await run(['--progress-every', 'soon', '.'])).toEqual(usage);
  });

  it('shows its progress on stderr, a line per interval when not on a terminal', async () => {
    const { status } = await run(['--progress-every', '0', '.']);
    expect(status).toBe(0);
    // Four files listed (the binary one is skipped but counted as done); one line after each.
    expect(progress).toHaveLength(4);
    expect(progress.at(-1)).toMatch(/^files 4\/4 \(100%\), 3 chunks, \d+ chunks\/s, 0:00 left\n$/);
    expect(progress[0]).toMatch(/^files 1\/4 \(25%\), /);
    // The default interval (5 s): one line at the start of a short run.
    await run(['.']);
    expect(progress).toHaveLength(1);
  });
});
