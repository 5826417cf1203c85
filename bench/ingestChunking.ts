/**
 * `npx tsx bench/ingestChunking.ts`: what chunking a 1 MB ingest (a 500 KB TypeScript file and a 500 KB markdown
 * guide) costs the event loop three ways: inline on the main thread (before issue 13), the lower bound of "bounded
 * slices that yield" (its one indivisible step: the TypeScript parse of the whole file), and the ChunkingPool
 * (worker thread). The event loop's delay is sampled with perf_hooks.monitorEventLoopDelay while each runs.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import ts from 'typescript';
import { ChunkingPool } from '../ai/chunking/chunkingPool';
import { chunkDocument } from '../ai/chunking/documentChunker';
import { tiktokenCounter } from '../ai/chunking/tokenCounter';
import type { ValidDocument } from '../ai/chunking/validation';

function codeText(bytes: number): string {
  let text = '';
  for (let i = 0; text.length < bytes; i++) {
    text += `/** Gate ${i}. */\nexport class Gate${i} {\n`;
    for (let m = 0; m < 12; m++) {
      text += `  rule${m}(token: string, hour: number): boolean {\n    return (hour + ${i * m}) % ${m + 2} === 0 && token.startsWith('g${i}');\n  }\n\n`;
    }
    text += '}\n\n';
  }
  return text;
}

function markdownText(bytes: number): string {
  let text = '# Lantern guide\n\n';
  for (let i = 0; text.length < bytes; i++) {
    text += `## Lantern ${i}\n\n`;
    for (let p = 0; p < 6; p++) {
      text += `The lamplighter ${i}-${p} trims quillwick lantern ${i} at dusk beside gate ${i * 7 + p}; the oil of `;
      text += `cask ${i % 13} lasts until bell ${p} rings, and the wick is turned twice before the night watch.\n\n`;
    }
  }
  return text;
}

const documents: ValidDocument[] = [
  { source: 'ai/gates.ts', index: 'code', text: codeText(500_000) },
  { source: 'docs/lanterns.md', index: 'docs', text: markdownText(500_000) },
];

/** Runs `work`, returning its wall time and the event loop's worst and p99 lag meanwhile (a 5 ms timer's lateness). */
async function measure(
  work: () => Promise<unknown>,
): Promise<{ wallMs: number; maxLagMs: number; p99LagMs: number }> {
  const lags: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    lags.push(Math.max(0, now - last - 5));
    last = now;
  }, 5);
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  // Let the late tick land (synchronous work shows only when the loop turns again).
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(timer);
  lags.sort((a, b) => a - b);
  return { wallMs, maxLagMs: lags.at(-1) ?? 0, p99LagMs: lags[Math.floor(lags.length * 0.99)] ?? 0 };
}

const round = (figures: Record<string, number>) =>
  Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, Math.round(value)]));

async function main(): Promise<void> {
  console.log(
    `load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}, ${os.cpus().length} CPUs`,
  );
  tiktokenCounter.count('warm the encoder');
  const inline = await measure(async () => {
    for (const document of documents) chunkDocument(document);
  });
  const parse = await measure(async () => {
    ts.createSourceFile('gates.ts', documents[0].text, ts.ScriptTarget.Latest, true);
  });
  const pool = new ChunkingPool({ threads: 1 });
  const cold = await measure(() => Promise.all(documents.map((document) => pool.chunk(document))));
  const warm = await measure(() => Promise.all(documents.map((document) => pool.chunk(document))));
  await pool.close();
  console.log('inline (main thread)         ', round(inline));
  console.log(
    'slices: TS parse alone       ',
    round(parse),
    '(indivisible: the least a slicing chunker blocks)',
  );
  console.log('pool, first (thread starts)  ', round(cold));
  console.log('pool, warm                   ', round(warm));
  console.log(
    `worst event-loop lag: inline ${Math.round(inline.maxLagMs)} ms, slices >= ${Math.round(parse.maxLagMs)} ms, ` +
      `pool ${Math.round(warm.maxLagMs)} ms warm / ${Math.round(cold.maxLagMs)} ms cold; ` +
      `pool wall time ${(warm.wallMs / inline.wallMs).toFixed(2)}x inline`,
  );
}

void main();
