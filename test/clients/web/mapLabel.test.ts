import { loadWorld } from '../../../rooms/content/loader';
import { mapAround } from '../../../rooms/rules/mapView';
import { type MapView, mapLabel } from '../../../clients/web/src/mapWords';
import { type QuestEntry, mapOf, updateQuests } from '../../../clients/web/src/events';
import { narrate } from '../../../rooms/text/narration';
import { runAction } from '../../../rooms/commands/actions';
import { buildSim } from '../../rooms/fixtures/simContext';

describe('the web client’s map words and quest log', () => {
  it('names the area, the room, where each exit leads and how much is explored', async () => {
    const sim = buildSim(await loadWorld(), 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    runAction(sim.ctx, 'ann', { action: 'look' });
    runAction(sim.ctx, 'ann', { action: 'move', direction: 'east' });
    const look = sim.drain().findLast((e) => e.type === 'room.look')!;
    const map = mapOf(narrate(look, 'ann')) as MapView;
    expect(map).toEqual(mapAround(sim.ctx, 'ann'));
    expect(mapLabel(map)).toBe(
      'Map of Thornwick Village. You are in Market Row. Exits: west to Village Square, ' +
        'north to Old Well (not explored yet), east to East Gate (not explored yet). 2 rooms explored nearby.',
    );
  });

  it('keeps a finished quest ready to hand in until it is completed', () => {
    const log = new Map<string, QuestEntry>();
    const event = (type: string, data: Record<string, unknown>) => ({
      type,
      channel: 'quest',
      text: '',
      data,
    });
    const done = [{ text: 'Visit East Gate', have: 1, need: 1, done: true }];
    updateQuests(
      log,
      event('quest.accepted', { quest: 'First Steps', objectives: [{ ...done[0], have: 0, done: false }] }),
    );
    updateQuests(log, event('quest.progress', { quest: 'First Steps', objectives: done }));
    expect(updateQuests(log, event('quest.ready', { quest: 'First Steps', giver: 'Elder Maren' }))).toBe(
      true,
    );
    updateQuests(log, event('quest.progress', { quest: 'First Steps', objectives: done }));
    expect(log.get('First Steps')).toEqual({
      name: 'First Steps',
      status: 'active',
      objectives: done,
      readyAt: 'Elder Maren',
    });
    updateQuests(log, event('quest.completed', { quest: 'First Steps' }));
    expect(log.get('First Steps')?.status).toBe('completed');
  });
});
