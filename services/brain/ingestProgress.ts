/** Where a folder ingest stands: files done of those listed, chunks written so far. */
export interface IngestProgress {
  files: number;
  total: number;
  chunks: number;
}

/** Something progress is written to: a terminal (`isTTY`) or a pipe or file. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const BAR_WIDTH = 24;
/** A terminal's bar is redrawn at most this often. */
const REDRAW_MS = 100;

/** `m:ss` (or `h:mm:ss`). */
function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, rest] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(rest).padStart(2, '0')}`;
}

/**
 * One line of progress: files done of the total with the percentage, chunks, the chunk rate since the start and
 * the time left at the file rate so far (`-` until a file is done).
 */
export function progressText(progress: IngestProgress, elapsedMs: number): string {
  const { files, total, chunks } = progress;
  const percent = total === 0 ? 100 : Math.floor((100 * files) / total);
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(chunks / seconds) : 0;
  const left = files > 0 ? clock(((total - files) * seconds) / files) : '-';
  return `files ${files}/${total} (${percent}%), ${chunks} chunks, ${rate} chunks/s, ${left} left`;
}

/** The same with a bar in front, for a terminal: `[#########---------------] files 12/32 ...`. */
export function progressBar(progress: IngestProgress, elapsedMs: number): string {
  const filled = progress.total === 0 ? BAR_WIDTH : Math.floor((BAR_WIDTH * progress.files) / progress.total);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${progressText(progress, elapsedMs)}`;
}

/**
 * Shows a folder ingest's progress on `stream` (the CLI's stderr, so its summary on stdout stays plain): on a
 * terminal a bar redrawn in place (at most every 100 ms) and erased when done; otherwise a plain line every
 * `everyMs` (5 s by default), so a log or CI output gets a line now and then instead of a stream of them.
 */
export class ProgressReporter {
  private readonly startedAt: number;
  private lastAt = Number.NEGATIVE_INFINITY;
  private drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly everyMs = 5000,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
  }

  update(progress: IngestProgress): void {
    const now = this.now();
    const elapsed = now - this.startedAt;
    if (this.stream.isTTY) {
      if (now - this.lastAt < REDRAW_MS && progress.files < progress.total) return;
      this.stream.write(`\r\x1b[K${progressBar(progress, elapsed)}`);
      this.drawn = true;
    } else {
      if (now - this.lastAt < this.everyMs) return;
      this.stream.write(`${progressText(progress, elapsed)}\n`);
    }
    this.lastAt = now;
  }

  /** Erases a terminal's bar (the summary line follows on stdout). */
  done(): void {
    if (this.stream.isTTY && this.drawn) this.stream.write('\r\x1b[K');
    this.drawn = false;
  }
}
