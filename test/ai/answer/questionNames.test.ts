import type { ContextPassage } from '../../../ai/answer/contextBuilder';
import { questionNames, unmentionedNames } from '../../../ai/answer/questionNames';
import type { Hit } from '../../../ai/retrieval/hit';

const passage = (text: string, title = 'Notes', source = 'docs/notes.md'): ContextPassage =>
  ({ n: 1, text, hit: { title, source } as Hit }) as ContextPassage;

describe('question names (abstention when the documents never mention what a question names)', () => {
  it('takes acronyms and capitalised words inside a sentence, not sentence openers, "I" or possessives', () => {
    expect(questionNames("What is the CTO's lucky number?")).toEqual(['CTO']);
    expect(questionNames('How many rings does the planet Zorbon have?')).toEqual(['Zorbon']);
    expect(questionNames('Which Quarkle release runs the bakery on XYZ9?')).toEqual(['Quarkle', 'XYZ9']);
    expect(questionNames('How do I rotate a key? Where is it stored?')).toEqual([]);
    expect(questionNames('What rate limit does the gateway enforce?')).toEqual([]);
  });

  it('reports the names no passage text, title or source mentions, in any case', () => {
    const passages = [
      passage('I work at the Harbour Guild, and my lucky number is seven.'),
      passage('Disposition toward a player.', 'World › NPCs', 'world/README.md'),
    ];
    expect(unmentionedNames("What is the CTO's lucky number?", passages)).toEqual(['CTO']);
    expect(unmentionedNames('Which emotional states can a companion or NPC have?', passages)).toEqual([]);
    expect(unmentionedNames('Who runs the Harbour Guild?', passages)).toEqual([]);
    expect(unmentionedNames('What does the README say?', passages)).toEqual([]);
  });
});
