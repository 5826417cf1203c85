import { lastSlot } from '../../../../services/brain/consolidation/consolidationSlot';
import { sameEntity } from '../../../../services/brain/consolidation/entityMerger';

describe('consolidation rules', () => {
  it('tells near-equal entity names apart from different ones', () => {
    expect(sameEntity('hill-town', 'hilltown')).toBe(true);
    expect(sameEntity('riverside', 'riversid')).toBe(true);
    expect(sameEntity('ann', 'ann smith')).toBe(true);
    expect(sameEntity('tom', 'tim')).toBe(false);
    expect(sameEntity('ann', 'anna smith')).toBe(false);
  });

  it('finds the last nightly slot in a time zone', () => {
    expect(lastSlot(Date.parse('2026-11-26T07:00:00Z'), '03:30', 'UTC').toISOString()).toBe(
      '2026-11-26T03:30:00.000Z',
    );
    expect(lastSlot(Date.parse('2026-11-26T02:00:00Z'), '03:30', 'UTC').toISOString()).toBe(
      '2026-11-25T03:30:00.000Z',
    );
    expect(lastSlot(Date.parse('2026-07-26T07:00:00Z'), '03:30', 'America/New_York').toISOString()).toBe(
      '2026-07-25T07:30:00.000Z',
    );
  });
});
