import { z } from 'zod';
import { ACTION_NAMES } from '../../rooms/commands/actions';
import { actionSummary } from '../../rooms/commands/actionSummary';
import { ActionRequestSchema } from '../../services/mud/schemas';

describe('the MudAction description the API documents', () => {
  it('names every action of the union, with its fields and their values', () => {
    const summary = actionSummary();
    expect(summary.split(' | ').map((part) => part.split(' ')[0])).toEqual(ACTION_NAMES);
    expect(summary).toContain('companion {op: talk|presence|swap|decline|ask, presence?:');
    expect(summary).toContain('group {op: invite|accept|leave|list, player?}');
    expect(summary).toContain('whisper {to, text}');
    expect(summary).toContain(
      'trade {op: list|browse|mine|buy|cancel, item?, qty?, price?, currency?: soft|hard',
    );
  });

  it('is what POST /mud/action publishes for its body', () => {
    expect(z.globalRegistry.get(ActionRequestSchema)).toMatchObject({
      id: 'MudAction',
      description: actionSummary(),
    });
  });
});
