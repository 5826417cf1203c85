import { ProgressReporter, progressBar, progressText } from '../../../services/brain/ingestProgress';

describe('brain:ingest progress', () => {
  it('says files, percentage, chunks, rate and the time left at the rate so far', () => {
    expect(progressText({ files: 0, total: 40, chunks: 0 }, 0)).toBe(
      'files 0/40 (0%), 0 chunks, 0 chunks/s, - left',
    );
    expect(progressText({ files: 10, total: 40, chunks: 500 }, 20_000)).toBe(
      'files 10/40 (25%), 500 chunks, 25 chunks/s, 1:00 left',
    );
    expect(progressText({ files: 1, total: 400, chunks: 10 }, 30_000)).toBe(
      'files 1/400 (0%), 10 chunks, 0 chunks/s, 3:19:30 left',
    );
    expect(progressBar({ files: 12, total: 24, chunks: 60 }, 6000)).toBe(
      '[############------------] files 12/24 (50%), 60 chunks, 10 chunks/s, 0:06 left',
    );
  });

  it('redraws a bar in place on a terminal, at most every 100 ms but always at the end, and erases it', () => {
    const written: string[] = [];
    let now = 0;
    const reporter = new ProgressReporter(
      { isTTY: true, write: (t: string) => written.push(t) },
      5000,
      () => now,
    );
    reporter.update({ files: 1, total: 3, chunks: 2 });
    now = 50;
    reporter.update({ files: 2, total: 3, chunks: 4 });
    now = 60;
    reporter.update({ files: 3, total: 3, chunks: 6 });
    reporter.done();
    expect(written).toEqual([
      '\r\x1b[K[########----------------] files 1/3 (33%), 2 chunks, 0 chunks/s, 0:00 left',
      '\r\x1b[K[########################] files 3/3 (100%), 6 chunks, 100 chunks/s, 0:00 left',
      '\r\x1b[K',
    ]);
  });

  it('writes a plain line per interval to a pipe, and nothing to erase', () => {
    const written: string[] = [];
    let now = 0;
    const reporter = new ProgressReporter({ write: (t: string) => written.push(t) }, 5000, () => now);
    for (let files = 1; files <= 10; files++) {
      now = files * 1000;
      reporter.update({ files, total: 10, chunks: files * 10 });
    }
    reporter.done();
    expect(written).toEqual([
      'files 1/10 (10%), 10 chunks, 10 chunks/s, 0:09 left\n',
      'files 6/10 (60%), 60 chunks, 10 chunks/s, 0:04 left\n',
    ]);
  });
});
