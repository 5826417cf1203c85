import { loadWorld } from '../../rooms/content/loader';
import type { World } from '../../rooms/content/world';
import { roomGraph } from '../../rooms/roomGraph';
import { runAction } from '../../rooms/commands/actions';
import type { GameEvent } from '../../rooms/text/events';
import { MAP_RADIUS, type MapView, mapAround } from '../../rooms/rules/mapView';
import { narrate } from '../../rooms/text/narration';
import { buildSim } from './fixtures/simContext';

describe('the room graph and the neighbourhood map', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('numbers every room once, gives every exit a number and every room of an area its own spot', () => {
    const graph = roomGraph(world);
    expect(graph.rooms.size).toBe(world.rooms.size);
    expect(graph.byNum.size).toBe(world.rooms.size);
    const spots = new Set<string>();
    for (const node of graph.rooms.values()) {
      expect(node.num).toBeGreaterThanOrEqual(1);
      expect(node.num).toBeLessThanOrEqual(49_999);
      const room = world.rooms.get(node.ref)!;
      expect(Object.keys(node.exits).sort()).toEqual(Object.keys(room.exits).sort());
      for (const [direction, num] of Object.entries(node.exits))
        expect(graph.byNum.get(num)!.ref).toBe(room.exits[direction as keyof typeof room.exits]);
      spots.add(`${node.areaId}:${node.x},${node.y},${node.z}`);
    }
    expect(spots.size).toBe(world.rooms.size);
    // Laid out from the area's first room: north is y+1, east x+1, down z-1.
    const at = (ref: string) => {
      const { x, y, z } = graph.rooms.get(ref)!;
      return [x, y, z];
    };
    expect(at('village:square')).toEqual([0, 0, 0]);
    expect(at('village:chapel')).toEqual([0, 1, 0]);
    expect(at('village:market')).toEqual([1, 0, 0]);
    expect(at('village:cellar')).toEqual([0, -1, -1]);
  });

  it('computes the same numbers for a world loaded again (stable across processes and restarts)', async () => {
    const again = roomGraph(await loadWorld());
    for (const [ref, node] of roomGraph(world).rooms) expect(again.rooms.get(ref)).toEqual(node);
  });

  it('a newcomer sees their room, its exits and where they lead before exploring', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    runAction(sim.ctx, 'ann', { action: 'command', line: 'map' });
    const [event] = sim.drain();
    expect(narrate(event, 'ann').text).toBe(
      [
        'Thornwick Village — you are in Village Square [@]',
        '    [?]',
        '     |',
        '[?]-[@]-[?]',
        '     |',
        '    [?]',
        '[?] not explored yet.',
      ].join('\n'),
    );
  });

  it('reaches only a few steps, follows only visited rooms, and lists exits out of the area', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    for (const line of ['w', 'n', 's', 'e', 'e', 'e', 'w', 'n'])
      runAction(sim.ctx, 'ann', { action: 'command', line });
    const map = mapAround(sim.ctx, 'ann');
    const graph = roomGraph(world);
    const names = (rooms: MapView['rooms']) => rooms.map((room) => room.name).sort();
    expect(map.area).toBe('Thornwick Village');
    expect(map.here).toBe(graph.rooms.get('village:well')!.num);
    // From the well: the market (1), the square and the gate (2), the smithy (3); the chapel and the inn (3) are
    // unexplored, the workshop (4) too far.
    expect(names(map.rooms.filter((room) => room.visited))).toEqual(
      ['Market Row', 'East Gate', 'Village Square', "Brandal's Smithy", 'Old Well'].sort(),
    );
    expect(names(map.rooms.filter((room) => !room.visited))).toEqual([
      'Chapel of the Quiet Flame',
      'The Sleeping Boar Inn',
    ]);
    expect(map.rooms.every((room) => !room.name.includes('Leatherworker'))).toBe(true);
    expect(MAP_RADIUS).toBe(3);
    const square = map.rooms.find((room) => room.name === 'Village Square')!;
    expect(square.exits).toEqual({
      north: graph.rooms.get('village:chapel')!.num,
      east: graph.rooms.get('village:market')!.num,
      south: graph.rooms.get('village:inn')!.num,
      west: graph.rooms.get('village:smithy')!.num,
    });
    runAction(sim.ctx, 'ann', { action: 'map' });
    const [drawn] = sim.drain().filter((e) => e.type === 'map');
    expect(narrate(drawn, 'ann').text).toContain('East Gate: east to The Whisperwood');
    expect(narrate(drawn, 'ann').text).toContain('Old Well: north to Greywatch Ruins');
  });

  it('sends the map with every room description the player gets', () => {
    const sim = buildSim(world, 'village');
    sim.addPlayer('ann', { roomRef: 'village:square' });
    runAction(sim.ctx, 'ann', { action: 'look' });
    sim.drain();
    runAction(sim.ctx, 'ann', { action: 'move', direction: 'east' });
    const look = sim.drain().find((e) => e.type === 'room.look') as Extract<GameEvent, { type: 'room.look' }>;
    expect(look.map?.here).toBe(roomGraph(world).rooms.get('village:market')!.num);
    expect(look.map?.rooms.filter((room) => room.visited).map((room) => room.name)).toEqual([
      'Market Row',
      'Village Square',
    ]);
    expect(narrate(look, 'ann').data.map).toEqual(look.map);
  });
});
