import { noSources } from './errors';
import { chooseSentences, prose, type DraftSource } from './draftSources';

/** Tones and lengths a draft can take. */
export const TONES = ['neutral', 'informative', 'playful', 'hype'] as const;
export const LENGTHS = ['short', 'medium', 'long'] as const;

/** What to write. */
export interface DraftRequest {
  topic: string;
  platform: string;
  tone: (typeof TONES)[number];
  length: (typeof LENGTHS)[number];
}

/** A draft and the sources it drew on (its citations `[n]` number them). */
export interface Draft {
  text: string;
  method: 'offline-extractive';
  sources: Array<{ ref: number; id: string; kind: 'knowledge' | 'post'; title: string; quoted: string }>;
  hashtags: string[];
}

/** Framing lines per tone: they carry no facts, only the topic's name. */
const OPENERS: Record<DraftRequest['tone'], (topic: string) => string> = {
  neutral: (topic) => `On ${topic}:`,
  informative: (topic) => `What to know about ${topic}:`,
  playful: (topic) => `Quick one about ${topic} 👀`,
  hype: (topic) => `${topic[0].toUpperCase()}${topic.slice(1)}: let's go! 🔥`,
};
const CLOSERS: Record<DraftRequest['tone'], string> = {
  neutral: 'More soon.',
  informative: 'Sources below.',
  playful: 'Tell me what you think!',
  hype: 'See you in there!',
};
const SENTENCES = { short: 1, medium: 2, long: 4 } as const;
/** Platforms with a hard length limit (characters). */
const LIMITS: Record<string, number> = { x: 280, twitter: 280, bluesky: 300, threads: 500 };
const HASHTAG_PLATFORMS = new Set(['x', 'twitter', 'instagram', 'tiktok', 'threads', 'bluesky', 'youtube']);

/**
 * The offline draft writer: a fixed framing line for the tone, then sentences copied verbatim from the sources by
 * extractive selection (draftSources.ts), each followed by its citation `[n]`, then a framing close and the
 * creator's own hashtags from their best posts on the topic. Facts only ever come from the quoted sentences, and
 * `assertGrounded` checks each one is in its source before the draft is returned; with nothing to quote, no draft
 * (422 NO_SOURCES). Platforms with a length limit get fewer sentences until the draft fits.
 */
export function writeDraft(request: DraftRequest, sources: DraftSource[], bestTags: string[]): Draft {
  const limit = LIMITS[request.platform];
  let count: number = limit ? Math.min(SENTENCES[request.length], 2) : SENTENCES[request.length];
  const hashtags = HASHTAG_PLATFORMS.has(request.platform)
    ? bestTags
        .slice(0, 3)
        .map((tag) => `#${tag.replace(/[^\p{L}\p{N}_]/gu, '')}`)
        .filter((tag) => tag.length > 1)
    : [];
  for (; count >= 1; count -= 1) {
    const chosen = chooseSentences(request.topic, sources, count);
    if (chosen.length === 0) throw noSources(request.topic);
    const refs = new Map<string, number>();
    for (const sentence of chosen)
      if (!refs.has(sentence.source.id)) refs.set(sentence.source.id, refs.size + 1);
    const body = chosen.map((sentence) => `${sentence.text} [${refs.get(sentence.source.id)}]`);
    const join = (parts: string[]) => parts.filter(Boolean).join(request.platform === 'blog' ? '\n\n' : '\n');
    let text = join([
      OPENERS[request.tone](request.topic),
      ...body,
      CLOSERS[request.tone],
      hashtags.join(' '),
    ]);
    if (limit && text.length > limit && count > 1) continue;
    if (limit && text.length > limit) text = join([OPENERS[request.tone](request.topic), ...body]);
    // A quoted sentence is at most 240 characters: alone with its citation it fits every limit.
    if (limit && text.length > limit) text = join(body);
    assertGrounded(chosen.map((sentence) => ({ quoted: sentence.text, source: sentence.source.text })));
    const used = [...refs].map(([id, ref]) => {
      const source = sources.find((candidate) => candidate.id === id) as DraftSource;
      const quoted = chosen.filter((sentence) => sentence.source.id === id).map((sentence) => sentence.text);
      return { ref, id, kind: source.kind, title: source.title, quoted: quoted.join(' ') };
    });
    return { text, method: 'offline-extractive', sources: used, hashtags };
  }
  throw noSources(request.topic);
}

/** Throws when a quoted sentence is not in its source (markup and spacing aside): the no-invention check. */
export function assertGrounded(quotes: Array<{ quoted: string; source: string }>): void {
  const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  for (const { quoted, source } of quotes) {
    if (!squash(prose(source)).includes(squash(quoted)))
      throw new Error(`Draft sentence without its source: ${quoted.slice(0, 60)}`);
  }
}
