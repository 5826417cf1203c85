import type { TokenCounter } from './tokenCounter';

/** A structural unit found by a chunker (a markdown section, a code symbol, a paragraph run). */
export interface Section {
  text: string;
  /** 1-based line of the section's first line in the document. */
  startLine: number;
  headingPath: string[];
  symbols: string[];
}

/** A section cut to fit the token budget. */
export interface SizedSection extends Section {
  endLine: number;
  tokenCount: number;
}

/** Token budget: `maxTokens` per chunk (default 512), `overlapTokens` repeated across a split (default 64). */
export interface ChunkBudget {
  maxTokens: number;
  overlapTokens: number;
}

export const DEFAULT_CHUNK_BUDGET: ChunkBudget = { maxTokens: 512, overlapTokens: 64 };

interface Unit {
  text: string;
  startLine: number;
  endLine: number;
  tokens: number;
}

const FENCE = /^\s*(```|~~~)/;

/** Blank-line separated blocks; a fenced code block is never cut at its inner blank lines. */
function blocksOf(text: string, firstLine: number): Omit<Unit, 'tokens'>[] {
  const blocks: Omit<Unit, 'tokens'>[] = [];
  let lines: string[] = [];
  let start = firstLine;
  let inFence = false;
  text.split('\n').forEach((line, i) => {
    if (FENCE.test(line)) inFence = !inFence;
    if (line.trim() === '' && !inFence) {
      if (lines.length > 0)
        blocks.push({ text: lines.join('\n'), startLine: start, endLine: start + lines.length - 1 });
      lines = [];
      start = firstLine + i + 1;
      return;
    }
    if (lines.length === 0) start = firstLine + i;
    lines.push(line);
  });
  if (lines.length > 0)
    blocks.push({ text: lines.join('\n'), startLine: start, endLine: start + lines.length - 1 });
  return blocks;
}

/** Breaks a unit that alone exceeds the budget: into lines, and a single huge line into token windows. */
function fitUnit(unit: Omit<Unit, 'tokens'>, budget: ChunkBudget, counter: TokenCounter): Unit[] {
  const tokens = counter.count(unit.text);
  if (tokens <= budget.maxTokens) return [{ ...unit, tokens }];
  const lines = unit.text.split('\n');
  if (lines.length === 1) {
    return counter.split(unit.text, budget.maxTokens, budget.overlapTokens).map((text) => ({
      text,
      startLine: unit.startLine,
      endLine: unit.endLine,
      tokens: counter.count(text),
    }));
  }
  return lines.flatMap((line, i) =>
    line.trim() === ''
      ? []
      : fitUnit({ text: line, startLine: unit.startLine + i, endLine: unit.startLine + i }, budget, counter),
  );
}

/** Greedily packs units up to the budget; each new piece starts with the previous piece's tail units
 * totalling at most `overlapTokens`, so a sentence cut at a boundary is still found whole in one piece. */
function pack(units: Unit[], budget: ChunkBudget): Unit[][] {
  const pieces: Unit[][] = [];
  let current: Unit[] = [];
  let size = 0;
  for (const unit of units) {
    if (current.length > 0 && size + unit.tokens + 1 > budget.maxTokens) {
      pieces.push(current);
      const overlap: Unit[] = [];
      let overlapSize = 0;
      for (let i = current.length - 1; i > 0; i--) {
        if (overlapSize + current[i].tokens > budget.overlapTokens) break;
        overlap.unshift(current[i]);
        overlapSize += current[i].tokens + 1;
      }
      const keepOverlap = overlapSize + unit.tokens + 1 <= budget.maxTokens;
      current = keepOverlap ? overlap : [];
      size = keepOverlap ? overlapSize : 0;
    }
    current.push(unit);
    size += unit.tokens + 1;
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}

/** Rejoins units with the separator they had: a newline between adjacent lines, a blank line otherwise. */
function joinUnits(units: Unit[]): string {
  return units
    .map((u, i) =>
      i === 0 ? u.text : `${u.startLine === units[i - 1].endLine + 1 ? '\n' : '\n\n'}${u.text}`,
    )
    .join('');
}

/**
 * Cuts sections to the token budget. A section that fits is kept whole; a larger one is split at blank
 * lines, then at lines, then by tokens, with overlap between consecutive pieces (never across sections:
 * a heading or symbol boundary is already a clean cut).
 */
export function fitSections(sections: Section[], budget: ChunkBudget, tokens: TokenCounter): SizedSection[] {
  const counter = remembering(tokens);
  return sections.flatMap((section) => {
    const text = section.text.replace(/\s+$/, '');
    const lineCount = text.split('\n').length;
    const tokenCount = counter.count(text);
    if (tokenCount <= budget.maxTokens) {
      return [{ ...section, text, endLine: section.startLine + lineCount - 1, tokenCount }];
    }
    const units = blocksOf(text, section.startLine).flatMap((b) => fitUnit(b, budget, counter));
    return pack(units, budget).map((piece) => {
      const pieceText = joinUnits(piece);
      return {
        ...section,
        text: pieceText,
        startLine: piece[0].startLine,
        endLine: piece[piece.length - 1].endLine,
        tokenCount: counter.count(pieceText),
      };
    });
  });
}

/**
 * The counter with its counts remembered for one call: a section that is one block, a line that is one unit and a
 * piece that is one unit are the same text counted again, which on a 100 KB line is the whole cost again.
 */
function remembering(counter: TokenCounter): TokenCounter {
  const counts = new Map<string, number>();
  return {
    count(text) {
      let tokens = counts.get(text);
      if (tokens === undefined) counts.set(text, (tokens = counter.count(text)));
      return tokens;
    },
    split: (text, maxTokens, overlapTokens) => counter.split(text, maxTokens, overlapTokens),
  };
}
