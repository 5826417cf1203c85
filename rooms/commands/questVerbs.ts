import type { VerbParser, VerbTable } from './lineWords';

const quests: VerbParser = () => ({ action: 'quests' });

/**
 * Quests: `quest accept|complete|log <quest>`, `quest <quest>` (takes it), `accept [quest]` (`yes`), `complete
 * [quest]`, `quests` (`journal`).
 */
export const QUEST_VERBS: VerbTable = {
  quest: (rest) => {
    const [op = 'progress', ...words] = rest.split(/\s+/).filter(Boolean);
    const quest = words.join(' ') || undefined;
    if (op === 'log' || op === 'progress')
      return { action: 'quest', op: 'progress', ...(quest ? { quest } : {}) };
    // "quest first steps": a quest named without an op is one to take.
    if (op !== 'accept' && op !== 'complete') return { action: 'quest', op: 'accept', quest: rest };
    return { action: 'quest', op, ...(quest ? { quest } : {}) };
  },
  // A bare "accept" or "yes" takes the most recent offer; "complete" hands in the quest finished here.
  accept: (rest) => ({ action: 'quest', op: 'accept', ...(rest ? { quest: rest } : {}) }),
  yes: () => ({ action: 'quest', op: 'accept' }),
  complete: (rest) => ({ action: 'quest', op: 'complete', ...(rest ? { quest: rest } : {}) }),
  quests,
  journal: quests,
};
