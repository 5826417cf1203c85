import type { NpcTemplate, World } from '../../rooms/content/world';
import { npcError } from './errors';

/** The memory subject of an NPC: `npc:<area>:<id>`. */
export function npcSubject(npc: NpcTemplate): string {
  return `npc:${npc.areaId}:${npc.id}`;
}

/** The tag that keeps one player's history with an NPC apart from everyone else's. */
export function playerTag(userId: string): string {
  return `player:${userId}`;
}

/** Tag of memories that moved the NPC's disposition (the reasons `relationship` shows). */
export const DISPOSITION_TAG = 'disposition';

/** The NPC a route names: its ref (`village:elder`) or, when unique, its id or name; else 404 NPC_NOT_FOUND. */
export function resolveNpc(world: World, name: string): NpcTemplate {
  const exact = world.npcs.get(name);
  if (exact) return exact;
  const wanted = name.trim().toLowerCase();
  const matches = [...world.npcs.values()].filter(
    (npc) => npc.id === wanted || npc.name.toLowerCase() === wanted,
  );
  if (matches.length !== 1) throw npcError('NPC_NOT_FOUND', `There is no NPC "${name}"`);
  return matches[0];
}

/** How long ago, as an NPC says it: "earlier today", "yesterday", "last week". */
export function agoPhrase(seconds: number): string {
  const days = seconds / 86_400;
  if (days < 1) return seconds < 3_600 ? 'just now' : 'earlier today';
  if (days < 2) return 'yesterday';
  if (days < 7) return 'a few days ago';
  if (days < 14) return 'last week';
  if (days < 60) return 'some weeks ago';
  return 'long ago';
}
