import type { ContentIssue } from './contentError';
import type { World } from './world';

/**
 * World checks beyond references: every room can be reached from the start room, every item a recipe or
 * a quest needs can be obtained somewhere (floor resource, loot, a merchant, a recipe or a quest reward),
 * every creature a quest asks to kill spawns somewhere, talk/riddle/escort NPCs are reachable, an escort's
 * destination is reachable from the NPC without leaving its area, quest prerequisites do not loop and no
 * quest needs both sides of a branch (`excludes`).
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
      if (objective.kind !== 'talk' && objective.kind !== 'riddle' && objective.kind !== 'escort') return;
      const npcRoom = world.npcs.get(objective.npc)?.room ?? '';
      if (!reachable.has(npcRoom))
        issues.push({ file, path: `${at}.npc`, message: `"${objective.npc}" stands in an unreachable room` });
      else if (objective.kind === 'escort' && !roomsWithinArea(world, npcRoom).has(objective.to))
        issues.push({
          file,
          path: `${at}.to`,
          message: `"${objective.to}" cannot be reached from "${npcRoom}" without leaving its area`,
        });
    });
    const both = exclusiveRequirements(world, quest.ref);
    if (both)
      issues.push({
        file,
        path: `${quest.id}.requires`,
        message: `needs both "${both[0]}" and "${both[1]}", which exclude each other`,
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

/** Rooms reachable from `start` through exits that stay in its area (where an escorted NPC will go). */
function roomsWithinArea(world: World, start: string): Set<string> {
  const area = world.rooms.get(start)?.areaId;
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const target of Object.values(world.rooms.get(queue.shift()!)?.exits ?? {}) as string[]) {
      if (seen.has(target) || world.rooms.get(target)?.areaId !== area) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return seen;
}

/** Two quests that `start` needs (transitively, itself included) but that exclude each other, if any. */
function exclusiveRequirements(world: World, start: string): [string, string] | undefined {
  const needed = new Set<string>([start]);
  const stack = [start];
  while (stack.length > 0) {
    for (const ref of world.quests.get(stack.pop()!)?.requires ?? []) {
      if (needed.has(ref)) continue;
      needed.add(ref);
      stack.push(ref);
    }
  }
  for (const ref of needed) {
    const clash = world.quests.get(ref)?.excludes.find((other) => needed.has(other));
    if (clash) return [ref, clash];
  }
  return undefined;
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
