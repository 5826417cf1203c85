/**
 * `npx tsx bench/memoryEval.ts`: a small LongMemEval-shaped evaluation of the memory service, written for this
 * platform. Dated sessions of a player's talks with a companion are remembered, then questions of five abilities are
 * asked through recall: information extraction (one session holds the answer), multi-session reasoning (the answer
 * spans sessions: every expected fact must be in the top 5), knowledge updates (the newest value must rank above the
 * old one), temporal reasoning (recall `as_of` a date must answer with what was true then) and abstention (nothing may
 * pass the relevance threshold). Prints accuracy per ability.
 */
import { openBenchMemory } from './memoryStores';

const SUBJECT = 'companion:eval:pip';
const day = (d: string) => new Date(`${d}T18:00:00.000Z`);

/** Dated sessions: [date, session id, turns]. */
const SESSIONS: [string, string, string[]][] = [
  [
    '2026-09-01',
    's1',
    [
      'Ann lives in Riverside.',
      'Ann keeps three beehives behind the mill.',
      'Her brother Tom works at the Copper Mine.',
    ],
  ],
  [
    '2026-09-08',
    's2',
    [
      "Ann's favourite colour is green.",
      'The dragon Smaug guards the northern pass.',
      'Ann bought a grey pony called Biscuit.',
    ],
  ],
  [
    '2026-09-20',
    's3',
    [
      'Tom works at the Harbour Guild.',
      'The blacksmith Mara sells iron swords on Fridays.',
      'Ann is afraid of deep water.',
    ],
  ],
  [
    '2026-10-05',
    's4',
    [
      'Ann moved to Hilltown.',
      "Ann's favorite colour is now blue.",
      'The Hilltown bakery sells honey cakes made with Ann honey.',
    ],
  ],
  [
    '2026-10-20',
    's5',
    [
      'Ann learned to swim at the lake.',
      'Mara forged a silver dagger for Tom.',
      'The harvest festival is on the last Friday of October.',
    ],
  ],
];

type Check = (contents: string[]) => boolean;
const top =
  (n: number, ...needles: RegExp[]): Check =>
  (c) =>
    needles.every((re) => c.slice(0, n).some((t) => new RegExp(re.source, 'i').test(t)));
const before =
  (first: RegExp, second: RegExp): Check =>
  (c) => {
    const a = c.findIndex((t) => new RegExp(first.source, 'i').test(t));
    const b = c.findIndex((t) => new RegExp(second.source, 'i').test(t));
    return a !== -1 && (b === -1 || a < b);
  };

/** [ability, question, check, as_of?]. */
const QUESTIONS: [string, string, Check | 'abstain', string?][] = [
  ['information extraction', 'How many beehives does Ann keep?', top(1, /beehives/)],
  ['information extraction', 'What is the name of Ann pony?', top(1, /Biscuit/)],
  ['information extraction', 'Who guards the northern pass?', top(1, /Smaug/)],
  ['information extraction', 'When does the blacksmith sell swords?', top(1, /Fridays/)],
  [
    'multi-session reasoning',
    'What did Mara make, and where does Tom work?',
    top(5, /dagger/, /Harbour Guild/),
  ],
  ['multi-session reasoning', 'What animals does Ann keep?', top(5, /beehives/, /pony/)],
  [
    'multi-session reasoning',
    'Where are Ann honey cakes sold and where are her hives?',
    top(5, /honey cakes/, /beehives/),
  ],
  ['knowledge updates', 'Where does Ann live?', before(/Hilltown/, /Riverside/)],
  ['knowledge updates', 'Where does Tom work?', before(/Harbour Guild/, /Copper Mine/)],
  ['knowledge updates', 'What is Ann favourite colour?', before(/blue/, /green/)],
  ['knowledge updates', 'Can Ann swim or is she afraid of water?', before(/swim/, /afraid/)],
  ['temporal reasoning', 'Where does Ann live?', before(/Riverside/, /Hilltown/), '2026-09-15'],
  ['temporal reasoning', 'Where does Tom work?', before(/Copper Mine/, /Harbour Guild/), '2026-09-10'],
  ['temporal reasoning', 'What is Ann favourite colour?', top(3, /green/), '2026-09-30'],
  ['abstention', 'What is the capital of Mongolia?', 'abstain'],
  ['abstention', 'How does quantum chromodynamics explain confinement?', 'abstain'],
  ['abstention', 'Which programming language compiles to WebAssembly fastest?', 'abstain'],
  ['abstention', 'Does Ann own a car?', 'abstain'],
  ['abstention', 'What is the name of Tom dog?', 'abstain'],
];

async function main(): Promise<void> {
  const bench = await openBenchMemory(Date.parse('2026-11-01T00:00:00.000Z'));
  try {
    for (const [date, session, turns] of SESSIONS) {
      for (const [i, content] of turns.entries()) {
        await bench.memory.remember({
          subject: SUBJECT,
          content,
          session_id: session,
          occurred_at: new Date(day(date).getTime() + i * 60_000),
        });
      }
    }
    // On the neural path (the default) the vectors follow remember: recall is asked once they are written.
    await bench.memory.vectorRepair.settled();
    const results = new Map<string, { right: number; total: number; baseline: number }>();
    for (const [ability, query, check, asOf] of QUESTIONS) {
      const { hits } = await bench.memory.recall({
        subject: SUBJECT,
        query,
        limit: 10,
        as_of: asOf ? day(asOf) : undefined,
      });
      const contents = hits.map((hit) => hit.memory.content);
      const right = check === 'abstain' ? hits.length === 0 : check(contents);
      // Baseline: plain BM25 over the same memories (no vectors, facts, recency, threshold or as_of).
      const plain = bench.memory.text
        .search(SUBJECT, query, ['episodic'], 10)
        .map((hit) => bench.memory.text.get(SUBJECT, hit.id)!.content);
      const baselineRight = check === 'abstain' ? plain.length === 0 : check(plain);
      const tally = results.get(ability) ?? { right: 0, total: 0, baseline: 0 };
      results.set(ability, {
        right: tally.right + (right ? 1 : 0),
        total: tally.total + 1,
        baseline: tally.baseline + (baselineRight ? 1 : 0),
      });
      if (!right)
        console.log(
          `  miss [${ability}] ${query}${asOf ? ` (as of ${asOf})` : ''} -> ${contents.slice(0, 3).join(' | ') || '(nothing)'}`,
        );
    }
    let right = 0;
    let baseline = 0;
    const line = (label: string, r: number, b: number, total: number) =>
      console.log(
        `${label.padEnd(26)} ${r}/${total}  ${((100 * r) / total).toFixed(0).padStart(3)}%   (BM25 baseline ${b}/${total})`,
      );
    for (const [ability, tally] of results) {
      right += tally.right;
      baseline += tally.baseline;
      line(ability, tally.right, tally.baseline, tally.total);
    }
    line('overall', right, baseline, QUESTIONS.length);
  } finally {
    await bench.shutdown();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
