import type { ContentIssue } from './contentError';
import { type World, areaOf } from './world';

type Kind = 'room' | 'creature' | 'item' | 'npc' | 'quest' | 'companion';

/**
 * Checks that every `"area:id"` reference in a loaded world points at something of the right kind, plus the
 * few rules that span files (a quest's giver offers it, a respawn room is in its own area, nobody sells a
 * companion). Returns the issues; an empty list means the world is consistent.
 */
export function checkCrossReferences(world: World): ContentIssue[] {
  const issues: ContentIssue[] = [];
  const tables: Record<Kind, ReadonlyMap<string, unknown>> = {
    room: world.rooms,
    creature: world.creatures,
    item: world.items,
    npc: world.npcs,
    quest: world.quests,
    companion: world.companions,
  };
  const expect = (file: string, path: string, kind: Kind, ref: string) => {
    if (!tables[kind].has(ref)) issues.push({ file, path, message: `unknown ${kind} "${ref}"` });
  };

  expect('world.yml', 'startRoom', 'room', world.startRoom);
  for (const area of world.areas.values()) {
    const file = `${area.id}/area.yml`;
    expect(file, 'respawnRoom', 'room', area.respawnRoom);
    if (areaOf(area.respawnRoom) !== area.id) {
      issues.push({ file, path: 'respawnRoom', message: `must be a room of area "${area.id}"` });
    }
  }
  for (const room of world.rooms.values()) {
    const file = `${room.areaId}/area.yml`;
    const at = `rooms.${room.id}`;
    for (const [direction, target] of Object.entries(room.exits)) {
      expect(file, `${at}.exits.${direction}`, 'room', target as string);
    }
    room.spawns.forEach((spawn, i) =>
      expect(file, `${at}.spawns[${i}].creature`, 'creature', spawn.creature),
    );
    room.items.forEach((item, i) => expect(file, `${at}.items[${i}].item`, 'item', item.item));
  }
  for (const creature of world.creatures.values()) {
    const file = `${creature.areaId}/creatures.yml`;
    creature.loot.forEach((loot, i) => expect(file, `${creature.id}.loot[${i}].item`, 'item', loot.item));
  }
  for (const npc of world.npcs.values()) {
    const file = `${npc.areaId}/npcs.yml`;
    expect(file, `${npc.id}.room`, 'room', npc.room);
    npc.offers.forEach((quest, i) => {
      expect(file, `${npc.id}.offers[${i}]`, 'quest', quest);
      const def = world.quests.get(quest);
      if (def && def.giver !== npc.ref) {
        issues.push({
          file,
          path: `${npc.id}.offers[${i}]`,
          message: `quest "${quest}" is given by "${def.giver}"`,
        });
      }
    });
    npc.sells.forEach((sale, i) => {
      if (world.companions.has(sale.item)) {
        issues.push({
          file,
          path: `${npc.id}.sells[${i}].item`,
          message: `"${sale.item}" is a companion and companions can never be purchased`,
        });
      } else expect(file, `${npc.id}.sells[${i}].item`, 'item', sale.item);
    });
    npc.likes.forEach((item, i) => expect(file, `${npc.id}.likes[${i}]`, 'item', item));
    npc.buys.forEach((item, i) => {
      if (item.includes(':')) expect(file, `${npc.id}.buys[${i}]`, 'item', item);
    });
    npc.protects.forEach((creature, i) => expect(file, `${npc.id}.protects[${i}]`, 'creature', creature));
    for (const questRef of Object.keys(npc.questLines)) {
      const quest = world.quests.get(questRef);
      const takesPart =
        quest?.giver === npc.ref || quest?.objectives.some((o) => 'npc' in o && o.npc === npc.ref);
      if (!quest) expect(file, `${npc.id}.questLines.${questRef}`, 'quest', questRef);
      else if (!takesPart)
        issues.push({
          file,
          path: `${npc.id}.questLines.${questRef}`,
          message: `"${npc.ref}" takes no part in "${questRef}"`,
        });
    }
  }
  for (const recipe of world.recipes.values()) {
    const file = `${recipe.areaId}/recipes.yml`;
    recipe.ingredients.forEach((ing, i) =>
      expect(file, `${recipe.id}.ingredients[${i}].item`, 'item', ing.item),
    );
    expect(file, `${recipe.id}.produces.item`, 'item', recipe.produces.item);
  }
  for (const quest of world.quests.values()) {
    const file = `${quest.areaId}/quests.yml`;
    expect(file, `${quest.id}.giver`, 'npc', quest.giver);
    const giver = world.npcs.get(quest.giver);
    if (giver && !giver.offers.includes(quest.ref)) {
      issues.push({ file, path: `${quest.id}.giver`, message: `"${quest.giver}" does not offer this quest` });
    }
    quest.objectives.forEach((objective, i) => {
      const at = `${quest.id}.objectives[${i}]`;
      if (objective.kind === 'kill') expect(file, `${at}.creature`, 'creature', objective.creature);
      if (objective.kind === 'collect') expect(file, `${at}.item`, 'item', objective.item);
      if (objective.kind === 'visit') expect(file, `${at}.room`, 'room', objective.room);
      if (objective.kind === 'talk' || objective.kind === 'riddle' || objective.kind === 'escort')
        expect(file, `${at}.npc`, 'npc', objective.npc);
      if (objective.kind === 'escort') expect(file, `${at}.to`, 'room', objective.to);
    });
    quest.excludes.forEach((other, i) => {
      expect(file, `${quest.id}.excludes[${i}]`, 'quest', other);
      if (world.quests.get(other) && !world.quests.get(other)!.excludes.includes(quest.ref))
        issues.push({ file, path: `${quest.id}.excludes[${i}]`, message: `"${other}" must exclude it too` });
    });
    quest.rewards.items.forEach((reward, i) =>
      expect(file, `${quest.id}.rewards.items[${i}].item`, 'item', reward.item),
    );
    if (quest.rewards.companion)
      expect(file, `${quest.id}.rewards.companion`, 'companion', quest.rewards.companion);
    quest.requires.forEach((required, i) => expect(file, `${quest.id}.requires[${i}]`, 'quest', required));
  }
  return issues;
}
