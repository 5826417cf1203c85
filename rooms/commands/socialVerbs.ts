import { InvalidActionError } from '../rules/errors';
import { type VerbParser, type VerbTable, required } from './lineWords';

const say: VerbParser = (rest, verb) => ({ action: 'say', text: required(rest, verb, 'text') });
const emote: VerbParser = (rest, verb) => ({ action: 'emote', text: required(rest, verb, 'action') });
const shout: VerbParser = (rest, verb) => ({ action: 'shout', text: required(rest, verb, 'text') });

/**
 * Other players: `say` (and `answer`, a riddle's answer said aloud), `emote|me`, `whisper <player> <text>`,
 * `shout|yell`, `who`, `group invite|accept|leave|list`. (`'text` and `:waves` are read by `commandLine.ts`.)
 */
export const SOCIAL_VERBS: VerbTable = {
  say,
  // Answering a riddle is saying the answer where its asker can hear.
  answer: say,
  emote,
  me: emote,
  whisper: (rest, verb) => {
    const match = /^(\S+)\s+(.+)$/.exec(required(rest, verb, 'player'));
    if (!match) throw new InvalidActionError(`Say what to whisper: "whisper <player> <text>".`);
    return { action: 'whisper', to: match[1], text: match[2] };
  },
  shout,
  yell: shout,
  who: () => ({ action: 'who' }),
  group: (rest, verb) => {
    const [op = 'list', ...words] = rest.split(/\s+/).filter(Boolean);
    const player = words.join(' ') || undefined;
    if (op !== 'invite' && op !== 'accept' && op !== 'leave' && op !== 'list')
      throw new InvalidActionError(
        `"${verb} ${op}": try "group invite <player>", "group accept" or "group leave".`,
      );
    return { action: 'group', op, ...(player ? { player } : {}) };
  },
};
