import type { ContentIssue } from './contentError';
import type { World } from './world';

/**
 * World checks beyond references: every room can be reached from the start room, every item a recipe or
 * a quest needs can be obtained somewhere (floor resource, loot, a merchant, a recipe or a quest reward),
 * every creature a quest asks to kill spawns somewhere, and quest prerequisites do not loop.
 */
export function checkPlayability(world: World): ContentIssue[] {
  const issues: ContentIssue[] = [];
  const reachable = reachableRooms(world);
  for (const room of world.rooms.values()) {
    if (!reachable.has(room.ref)) {
      issues.push({
        file: `${room.areaId}/area.yml`,
        path: `rooms.${room.id}`,
        message: 'cannot be reached from the start room',
      });
    }
  }
  const obtainable = obtainableItems(world, reachable);
  const spawned = new Set([...world.rooms.values()].flatMap((room) => room.spawns.map((s) => s.creature)));
  for (const recipe of world.recipes.values()) {
    recipe.ingredients.forEach((ing, i) => {
      if (!obtainable.has(ing.item))
        issues.push({
          file: `${recipe.areaId}/recipes.yml`,
          path: `${recipe.id}.ingredients[${i}].item`,
          message: `"${ing.item}" cannot be obtained anywhere`,
        });
    });
  }
  for (const quest of world.quests.values()) {
    const file = `${quest.areaId}/quests.yml`;
    const giver = world.npcs.get(quest.giver);
    if (giver && !reachable.has(giver.room))
      issues.push({ file, path: `${quest.id}.giver`, message: 'the giver stands in an unreachable room' });
    quest.objectives.forEach((objective, i) => {
      const at = `${quest.id}.objectives[${i}]`;
      if (objective.kind === 'kill' && !spawned.has(objective.creature))
        issues.push({
          file,
          path: `${at}.creature`,
          message: `"${objective.creature}" never spawns, so it cannot be killed`,
        });
      if (objective.kind === 'collect' && !obtainable.has(objective.item))
        issues.push({ file, path: `${at}.item`, message: `"${objective.item}" cannot be obtained anywhere` });
      if (objective.kind === 'visit' && !reachable.has(objective.room))
        issues.push({ file, path: `${at}.room`, message: `"${objective.room}" cannot be reached` });
      if (objective.kind === 'talk' && !reachable.has(world.npcs.get(objective.npc)?.room ?? ''))
        issues.push({ file, path: `${at}.npc`, message: `"${objective.npc}" stands in an unreachable room` });
    });
    if (requiresLoop(world, quest.ref))
      issues.push({ file, path: `${quest.id}.requires`, message: 'quest prerequisites form a loop' });
  }
  return issues;
}

/** Rooms reachable from the start room through exits. */
export function reachableRooms(world: World): Set<string> {
  const seen = new Set<string>(world.rooms.has(world.startRoom) ? [world.startRoom] : []);
  const queue = [...seen];
  while (queue.length > 0) {
    const room = world.rooms.get(queue.shift()!)!;
    for (const target of Object.values(room.exits) as string[]) {
      if (seen.has(target) || !world.rooms.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return seen;
}

/** Items a player can come by: floor resources, loot of spawning creatures, wares, recipes, quest rewards. */
export function obtainableItems(world: World, reachable: Set<string> = reachableRooms(world)): Set<string> {
  const items = new Set<string>();
  const spawned = new Set<string>();
  for (const room of world.rooms.values()) {
    if (!reachable.has(room.ref)) continue;
    room.items.forEach((entry) => items.add(entry.item));
    room.spawns.forEach((spawn) => spawned.add(spawn.creature));
  }
  for (const ref of spawned) world.creatures.get(ref)?.loot.forEach((loot) => items.add(loot.item));
  for (const npc of world.npcs.values())
    if (reachable.has(npc.room)) npc.sells.forEach((s) => items.add(s.item));
  for (const quest of world.quests.values()) quest.rewards.items.forEach((r) => items.add(r.item));
  // Recipes make more items available once their own ingredients are: repeat until nothing changes.
  let grew = true;
  while (grew) {
    grew = false;
    for (const recipe of world.recipes.values()) {
      if (items.has(recipe.produces.item) || !recipe.ingredients.every((ing) => items.has(ing.item)))
        continue;
      items.add(recipe.produces.item);
      grew = true;
    }
  }
  return items;
}

function requiresLoop(world: World, start: string): boolean {
  const stack = [...(world.quests.get(start)?.requires ?? [])];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const ref = stack.pop()!;
    if (ref === start) return true;
    if (seen.has(ref)) continue;
    seen.add(ref);
    stack.push(...(world.quests.get(ref)?.requires ?? []));
  }
  return false;
}
