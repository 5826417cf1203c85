/**
 * Splits text into sentence-like units for extractive answers and summaries: prose at sentence ends
 * (`.`, `!`, `?` followed by a space and a capital, digit or quote), and every line of its own where the
 * text is line-structured (table rows, list items, headings, code lines). Fenced-code markers, table
 * separators, units of fewer than 3 words and units over 400 characters (run-on code) are dropped;
 * whitespace is collapsed and markdown table pipes are kept (a table row reads as one fact). Code is cut at
 * lines: a block with more than one line ending in `{`, `}`, `;` or `,` is treated as line-structured.
 */
export function splitSentences(text: string): string[] {
  const units: string[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const codeLike = lines.filter((l) => /[{};,]$/.test(l)).length > 1;
    const structured = codeLike || lines.some((l) => /^(\||[-*+] |\d+\. |#{1,6} |```)/.test(l));
    const pieces = structured ? lines : [lines.join(' ')];
    for (const piece of pieces) {
      for (const sentence of piece.split(/(?<=[.!?])\s+(?=["'`(\p{Lu}\p{N}])/u)) {
        const clean = sentence.replace(/\s+/g, ' ').trim();
        if (/^(```|\|?\s*:?-{3,})/.test(clean)) continue;
        if ((clean.match(/[\p{L}\p{N}]+/gu) ?? []).length < 3 || clean.length > 400) continue;
        units.push(clean);
      }
    }
  }
  return units;
}

/** True for a unit that reads as code rather than prose (many brackets, semicolons and operators). */
export function looksLikeCode(unit: string): boolean {
  return (unit.match(/[{}()[\];=<>]/g) ?? []).length / unit.length > 0.04;
}
