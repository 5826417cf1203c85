import { loadWorld } from '../../../rooms/content/loader';
import type { World } from '../../../rooms/content/world';
import { ROOM_NUMBER_LIMIT, RoomAtlas } from '../../../services/mud/roomAtlas';

describe('RoomAtlas: room numbers and coordinates for mappers', () => {
  let world: World;
  beforeAll(async () => {
    world = await loadWorld();
  });

  it('numbers every room uniquely below the limit, the same on every build', () => {
    const first = new RoomAtlas(world).all();
    const again = new RoomAtlas(world).all();
    expect(first.map((room) => room.num)).toEqual(again.map((room) => room.num));
    expect(new Set(first.map((room) => room.num)).size).toBe(world.rooms.size);
    for (const room of first) expect(room.num).toBeGreaterThanOrEqual(1);
    for (const room of first) expect(room.num).toBeLessThan(ROOM_NUMBER_LIMIT);
  });

  it('keeps a room’s number when other rooms are added (a hash of its ref, not its rank)', () => {
    const square = new RoomAtlas(world).room('village:square')!.num;
    const rooms = new Map(world.rooms);
    rooms.set('aaa:new', {
      ...world.rooms.get('village:square')!,
      ref: 'aaa:new',
      areaId: 'village',
      exits: {},
    });
    expect(new RoomAtlas({ ...world, rooms }).room('village:square')!.num).toBe(square);
  });

  it('gives exits as room numbers and no two rooms of an area one position, compass steps one apart', () => {
    const atlas = new RoomAtlas(world);
    const square = atlas.room('village:square')!;
    const market = atlas.room('village:market')!;
    expect(square.exits.east).toBe(market.num);
    expect(market.coords).toEqual({ ...square.coords, x: square.coords.x + 1 });
    for (const area of world.areas.values()) {
      const spots = area.roomRefs.map((ref) => JSON.stringify(atlas.room(ref)!.coords));
      expect(new Set(spots).size).toBe(spots.length);
    }
  });
});
