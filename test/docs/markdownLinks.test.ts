import fs from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');
/** Folders that hold no committed Markdown of ours (dependencies, build output, data, the tool cache). */
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'coverage', '.git', '.cache']);
/** Other projects' pages kept as they were published, for the retrieval eval: their links are theirs. */
const THIRD_PARTY_PAGES = path.join(root, 'bench/corpora');

/** Every Markdown file of the repository (a corpus's own README, ours, is checked; its pages are not). */
function markdownFiles(dir = root): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && path.dirname(path.dirname(full)) === THIRD_PARTY_PAGES) return [];
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings, numbered as GitHub numbers repeated ones. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The relative link targets of a Markdown file (code spans and fenced blocks skipped). */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const links = [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]);
  return links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link));
}

describe('Markdown links', () => {
  const files = markdownFiles();

  it('finds the READMEs', () => {
    expect(files.map((file) => path.relative(root, file))).toContain('README.md');
  });

  it('every relative link in every Markdown file resolves, anchors included', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const link of relativeLinks(fs.readFileSync(file, 'utf8'))) {
        const [target, anchor] = link.split('#');
        const resolved = target ? path.resolve(path.dirname(file), decodeURIComponent(target)) : file;
        const where = `${path.relative(root, file)} → ${link}`;
        if (!fs.existsSync(resolved)) broken.push(`${where} (no such file)`);
        else if (
          anchor &&
          resolved.endsWith('.md') &&
          !anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor)
        )
          broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
