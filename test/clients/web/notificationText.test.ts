import { notificationText, type PlayerNotification } from '../../../clients/web/src/notificationText';
import { NOTIFICATION_KINDS } from '../../../services/notifications';

const note = (kind: string, payload: Record<string, unknown>): PlayerNotification => ({
  id: '1',
  kind,
  payload,
  created_at: '2026-11-27T10:00:00Z',
  read_at: null,
});

describe('the web client’s notification words', () => {
  it('puts every kind the platform lists into words, not the bare kind', () => {
    for (const kind of Object.keys(NOTIFICATION_KINDS)) {
      expect(notificationText(note(kind, {}))).not.toBe(kind.replace(/[._]/g, ' '));
    }
  });

  it('names who marked the player and why, the account linked, and the quests recommended', () => {
    expect(notificationText(note('social.fren', { by: 'minecraft:Steve', reason: 'saved me' }))).toBe(
      'Steve (block game) marked you as a fren: “saved me”',
    );
    expect(notificationText(note('social.foe', { by: 'discord:42', reason: null }))).toBe(
      '42 (chat) marked you as a foe.',
    );
    expect(notificationText(note('social.link_confirmed', { platform: 'discord', user_id: '42' }))).toBe(
      'Your chat account 42 is now linked to you. Not you? Unlink it.',
    );
    expect(
      notificationText(
        note('quests.recommendations', { quests: [{ name: 'The Mill' }, { name: 'Wolves' }] }),
      ),
    ).toBe('Quests for you next: The Mill, Wolves.');
    expect(notificationText(note('someone.else_did', {}))).toBe('someone else did');
  });
});
