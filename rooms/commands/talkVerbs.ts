import { CompanionPresence } from '../content/schemas';
import { InvalidActionError } from '../rules/errors';
import { type VerbTable, required } from './lineWords';

const PRESENCES = CompanionPresence.options;

/**
 * Conversation: `talk [to] <npc>`, `ask <npc> about <topic>`, `ask <companion> <question>`, and the companion's
 * own verbs `companion talk|presence <p>|swap|decline|ask <question>`.
 */
export const TALK_VERBS: VerbTable = {
  talk: (rest, verb) => ({ action: 'talk', npc: required(rest.replace(/^(to|with)\s+/i, ''), verb, 'npc') }),
  ask: (rest, verb) => {
    const line = required(rest, verb, 'npc');
    const match = /^(.+?)\s+about\s+(.+)$/i.exec(line);
    if (match) return { action: 'talk', npc: match[1], topic: match[2] };
    // "ask pip where did we find the crystal?": a question for your companion, named first.
    const [, question = ''] = /^\S+\s+(.+)$/.exec(line) ?? [];
    if (!question)
      throw new InvalidActionError(
        `Say what to ask: "ask <npc> about <topic>" or "ask <companion> <question>".`,
      );
    return { action: 'companion', op: 'ask', question, name: line.split(/\s+/)[0] };
  },
  companion: (rest, verb) => {
    const [op = 'talk', ...words] = rest.split(/\s+/).filter(Boolean);
    if (op === 'talk' || op === 'swap' || op === 'decline') return { action: 'companion', op };
    if (op === 'ask' && words.length > 0) return { action: 'companion', op, question: words.join(' ') };
    const presence = PRESENCES.find((p) => p.toLowerCase() === words.join(' ').toLowerCase());
    if (op === 'presence' && presence) return { action: 'companion', op, presence };
    throw new InvalidActionError(
      `"${verb} ${rest}": try "companion talk", "companion ask <question>", "companion presence <${PRESENCES.join('|')}>", "companion swap" or "companion decline".`,
    );
  },
};
