import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WorldContentError } from '../../rooms/content/contentError';
import { DEFAULT_WORLD_DIR, loadWorld } from '../../rooms/content/loader';

describe('world content', () => {
  it('loads the shipped world with at least the required amount of content', async () => {
    const world = await loadWorld();
    expect(world.name).toBe('The Thornwick Marches');
    expect(world.startRoom).toBe('village:square');
    expect(world.areas.size).toBeGreaterThanOrEqual(6);
    expect(world.rooms.size).toBeGreaterThanOrEqual(80);
    expect(world.creatures.size).toBeGreaterThanOrEqual(25);
    expect(world.items.size).toBeGreaterThanOrEqual(60);
    expect(world.recipes.size).toBeGreaterThanOrEqual(20);
    expect(world.quests.size).toBeGreaterThanOrEqual(25);
    expect(world.npcs.size).toBeGreaterThanOrEqual(12);
    expect(world.companions.size).toBeGreaterThanOrEqual(4);
    // Every room has a description of at least two sentences.
    for (const room of world.rooms.values()) {
      expect({
        room: room.ref,
        sentences: room.description.split(/[.!?](\s|$)/).filter((s) => s.trim()).length >= 2,
      }).toEqual({ room: room.ref, sentences: true });
    }
    // Every room has something to examine.
    expect([...world.rooms.values()].filter((room) => Object.keys(room.details).length === 0)).toEqual([]);
    expect([...world.companions.values()].every((c) => c.is_purchasable === false)).toBe(true);
    expect(world.rooms.get('village:gate')?.exits.east).toBe('forest:edge');
  });

  describe('broken data', () => {
    let dir: string;

    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'world-'));
      await cp(DEFAULT_WORLD_DIR, dir, { recursive: true });
    });

    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    async function loadError(): Promise<WorldContentError> {
      try {
        await loadWorld(dir);
      } catch (error) {
        if (error instanceof WorldContentError) return error;
        throw error;
      }
      throw new Error('expected the world to be rejected');
    }

    it('rejects unreachable rooms and quests whose objectives cannot be met', async () => {
      const areaFile = path.join(dir, 'village/area.yml');
      const area = await readFile(areaFile, 'utf8');
      await writeFile(
        areaFile,
        area.replace(
          'rooms:\n',
          'rooms:\n  attic:\n    name: Sealed Attic\n    description: Dust, and no way in.\n',
        ),
      );
      const creaturesFile = path.join(dir, 'village/creatures.yml');
      const creatures = await readFile(creaturesFile, 'utf8');
      await writeFile(
        creaturesFile,
        `${creatures}ghost:\n  name: ghost\n  description: Never seen.\n  level: 1\n  maxHealth: 1\n  attack: 0\n  defense: 0\n  xp: 1\n  temperament: timid\n`,
      );
      const questsFile = path.join(dir, 'village/quests.yml');
      const quests = await readFile(questsFile, 'utf8');
      await writeFile(
        questsFile,
        quests
          .replace(
            '{ kind: kill, creature: village:rat, count: 3 }',
            '{ kind: kill, creature: village:ghost, count: 1 }\n    - { kind: visit, room: village:attic }',
          )
          .replace(
            '{ kind: collect, item: forest:herb, count: 3 }',
            '{ kind: collect, item: village:herb_tea, count: 99 }',
          ),
      );
      const error = await loadError();
      expect(error.issues).toEqual([
        { file: 'village/area.yml', path: 'rooms.attic', message: 'cannot be reached from the start room' },
        {
          file: 'village/quests.yml',
          path: 'rat_problem.objectives[0].creature',
          message: '"village:ghost" never spawns, so it cannot be killed',
        },
        {
          file: 'village/quests.yml',
          path: 'rat_problem.objectives[1].room',
          message: '"village:attic" cannot be reached',
        },
      ]);
    });

    const edit = async (file: string, from: string, to: string) => {
      const text = await readFile(path.join(dir, file), 'utf8');
      expect(text).toContain(from);
      await writeFile(path.join(dir, file), text.replace(from, to));
    };

    it('rejects one-sided branches and quest lines of NPCs who take no part in the quest', async () => {
      await edit('ruins/quests.yml', 'excludes: [ruins:ledger_archive]', 'excludes: []');
      await edit(
        'village/npcs.yml',
        '  questLines:\n    village:first_steps:',
        '  questLines:\n    marsh:last_walk:',
      );
      expect((await loadError()).issues).toEqual([
        {
          file: 'village/npcs.yml',
          path: 'elder.questLines.marsh:last_walk',
          message: '"village:elder" takes no part in "marsh:last_walk"',
        },
        {
          file: 'ruins/quests.yml',
          path: 'ledger_archive.excludes[0]',
          message: '"ruins:ledger_sold" must exclude it too',
        },
      ]);
    });

    it('rejects escorts that leave their area and quests that need both sides of a branch', async () => {
      await edit('marsh/quests.yml', 'to: marsh:drowned_chapel }', 'to: forest:ranger_camp }');
      await edit(
        'ruins/quests.yml',
        'requires: [ruins:ledger_sold]',
        'requires: [ruins:ledger_sold, ruins:ledger_archive]',
      );
      expect((await loadError()).issues).toEqual([
        {
          file: 'marsh/quests.yml',
          path: 'last_walk.objectives[0].to',
          message:
            '"forest:ranger_camp" cannot be reached from "marsh:stilt_village" without leaving its area',
        },
        {
          file: 'ruins/quests.yml',
          path: 'fence_in_thornwick.requires',
          message: 'needs both "ruins:ledger_sold" and "ruins:ledger_archive", which exclude each other',
        },
      ]);
    });

    it('names the file and field of a schema error', async () => {
      await writeFile(
        path.join(dir, 'village/creatures.yml'),
        'rat:\n  name: rat\n  description: A rat.\n  level: 1\n  maxHealth: lots\n  attack: 1\n  defense: 0\n  xp: 1\n  temperament: neutral\n  colour: grey\n',
      );
      const error = await loadError();
      expect(error.issues).toEqual([
        {
          file: 'village/creatures.yml',
          path: 'rat.maxHealth',
          message: 'Invalid input: expected number, received string',
        },
        { file: 'village/creatures.yml', path: 'rat.colour', message: 'unknown field' },
      ]);
      expect(error.message).toBe(
        'Invalid world data:\nvillage/creatures.yml: rat.maxHealth: Invalid input: expected number, received string\nvillage/creatures.yml: rat.colour: unknown field',
      );
    });

    it('reports an exit to a room that does not exist', async () => {
      const file = path.join(dir, 'village/area.yml');
      const text = await readFile(file, 'utf8');
      await writeFile(
        file,
        text.replace(
          'north: village:chapel, east: village:market',
          'north: village:nowhere, east: village:market',
        ),
      );
      const error = await loadError();
      expect(error.issues).toContainEqual({
        file: 'village/area.yml',
        path: 'rooms.square.exits.north',
        message: 'unknown room "village:nowhere"',
      });
    });

    it('refuses a companion marked purchasable and an NPC selling a companion', async () => {
      const file = path.join(dir, 'forest/companions.yml');
      const text = await readFile(file, 'utf8');
      await writeFile(file, text.replace('is_purchasable: false', 'is_purchasable: true'));
      expect((await loadError()).issues).toEqual([
        {
          file: 'forest/companions.yml',
          path: 'pip.is_purchasable',
          message: 'Invalid input: expected false',
        },
      ]);
      await writeFile(file, text);
      const npcs = path.join(dir, 'forest/npcs.yml');
      const npcText = await readFile(npcs, 'utf8');
      await writeFile(
        npcs,
        npcText.replace('- { item: forest:healing_salve, price: 12 }', '- { item: forest:pip, price: 99 }'),
      );
      expect((await loadError()).issues).toEqual([
        {
          file: 'forest/npcs.yml',
          path: 'hermit.sells[0].item',
          message: '"forest:pip" is a companion and companions can never be purchased',
        },
      ]);
    });

    it('reports quests pointing at unknown creatures and items, and YAML syntax errors', async () => {
      await writeFile(
        path.join(dir, 'village/quests.yml'),
        (await readFile(path.join(dir, 'village/quests.yml'), 'utf8'))
          .replace('creature: village:rat', 'creature: village:dragon')
          .replace('item: forest:herb, count: 3', 'item: forest:mandrake, count: 3'),
      );
      await mkdir(path.join(dir, 'swamp'));
      await writeFile(path.join(dir, 'swamp/area.yml'), 'name: [unclosed\n');
      const issues = (await loadError()).issues;
      expect(issues.map((i) => `${i.file}: ${i.path}`)).toEqual(['swamp/area.yml: ']);
      expect(issues[0].message).toMatch(/^YAML: /);
      await rm(path.join(dir, 'swamp'), { recursive: true });
      expect((await loadError()).issues).toEqual([
        {
          file: 'village/quests.yml',
          path: 'rat_problem.objectives[0].creature',
          message: 'unknown creature "village:dragon"',
        },
        {
          file: 'village/quests.yml',
          path: 'herbs_for_healer.objectives[0].item',
          message: 'unknown item "forest:mandrake"',
        },
      ]);
    });
  });
});
