import type { Section } from './sectionSplitter';

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

/** The first level-1 heading of a markdown text, used as the document title when none is given. */
export function markdownTitle(text: string): string | undefined {
  let inFence = false;
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    const match = inFence ? null : HEADING.exec(line);
    if (match && match[1].length === 1) return match[2];
  }
  return undefined;
}

/**
 * Splits markdown at ATX headings (`#` to `######`; setext underlines are treated as text). Each section
 * keeps its heading path (outermost first) and starts with its own heading line. Headings inside fenced
 * code blocks are ignored. A heading with no body of its own is folded into the section that follows, so
 * no chunk is a bare title. Text before the first heading is a section with an empty path.
 */
export function markdownSections(text: string): Section[] {
  const sections: Section[] = [];
  const stack: { level: number; title: string }[] = [];
  let current: Section = { text: '', startLine: 1, headingPath: [], symbols: [] };
  let pendingHeadings: { text: string; startLine: number } | undefined;
  let inFence = false;

  const flush = () => {
    const body = current.text.replace(/\s+$/, '');
    const isBareHeading = current.headingPath.length > 0 && body.split('\n').length === 1;
    if (body.trim() === '') return;
    if (isBareHeading) {
      pendingHeadings ??= { text: '', startLine: current.startLine };
      pendingHeadings.text += `${body}\n\n`;
      return;
    }
    if (pendingHeadings) {
      current = {
        ...current,
        text: pendingHeadings.text + current.text,
        startLine: pendingHeadings.startLine,
      };
      pendingHeadings = undefined;
    }
    sections.push({ ...current, text: current.text.replace(/\s+$/, '') });
  };

  text.split('\n').forEach((line, i) => {
    if (FENCE.test(line)) inFence = !inFence;
    const match = inFence ? null : HEADING.exec(line);
    if (!match) {
      current.text += `${line}\n`;
      return;
    }
    flush();
    const level = match[1].length;
    while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, title: match[2] });
    current = { text: `${line}\n`, startLine: i + 1, headingPath: stack.map((h) => h.title), symbols: [] };
  });
  flush();
  if (pendingHeadings) {
    sections.push({
      text: pendingHeadings.text.trimEnd(),
      startLine: pendingHeadings.startLine,
      headingPath: current.headingPath,
      symbols: [],
    });
  }
  return sections.map((s) => ({ ...s, ...leadingBlankLinesTrimmed(s) }));
}

function leadingBlankLinesTrimmed(section: Section): Pick<Section, 'text' | 'startLine'> {
  const leading = /^(\s*\n)*/.exec(section.text)?.[0] ?? '';
  const skipped = leading.split('\n').length - 1;
  return { text: section.text.slice(leading.length), startLine: section.startLine + skipped };
}
