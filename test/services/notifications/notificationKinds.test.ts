import { NOTIFICATION_KINDS, type NotificationKind } from '../../../services/notifications';
import { isNoisy } from '../../../services/notifications/notificationKinds';
import { QUEST_NOTIFICATION_KINDS } from '../../../services/quests';
import { SOCIAL_NOTIFICATION_KINDS } from '../../../services/social';

// Every kind another area publishes is a kind the notifications area lists: this fails to compile when one is not.
const PUBLISHED: readonly NotificationKind[] = [...SOCIAL_NOTIFICATION_KINDS, ...QUEST_NOTIFICATION_KINDS];

describe('notification kinds', () => {
  it('lists every kind the social and quests areas publish, with its cap', () => {
    expect(Object.keys(NOTIFICATION_KINDS)).toEqual(expect.arrayContaining([...PUBLISHED]));
    // Marks and recommendations can come in streams; a linked account is a security matter and always arrives.
    expect(PUBLISHED.map((kind) => [kind, isNoisy(kind)])).toEqual([
      ['social.fren', true],
      ['social.foe', true],
      ['social.link_confirmed', false],
      ['quests.recommendations', true],
    ]);
  });

  it('treats a kind nobody listed as noisy', () => {
    expect(isNoisy('someone.else')).toBe(true);
  });
});
