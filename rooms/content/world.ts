import type { z } from 'zod';
import type {
  AreaFile,
  CompanionFile,
  CreatureFile,
  ItemFile,
  NpcFile,
  QuestFile,
  RecipeFile,
  RoomFile,
} from './schemas';

/** Fields every loaded world entry gains: its `"area:id"` reference, its area and its local id. */
export interface Located {
  ref: string;
  areaId: string;
  id: string;
}

export type RoomDef = z.output<typeof RoomFile> & Located;
export type AreaDef = Omit<z.output<typeof AreaFile>, 'rooms'> & { id: string; roomRefs: string[] };
export type CreatureTemplate = z.output<typeof CreatureFile> & Located;
export type ItemTemplate = z.output<typeof ItemFile> & Located;
export type NpcTemplate = z.output<typeof NpcFile> & Located;
export type RecipeDef = z.output<typeof RecipeFile> & Located;
export type QuestDef = z.output<typeof QuestFile> & Located;
export type CompanionTemplate = z.output<typeof CompanionFile> & Located;

/**
 * The validated, cross-checked world: everything keyed by `"area:id"` reference (areas by id). Immutable
 * after loading; rooms read it and keep live state (players, creatures, floor items) elsewhere.
 */
export interface World {
  name: string;
  startRoom: string;
  /** Help topics by id (`help <topic>`). */
  help: ReadonlyMap<string, { title: string; text: string }>;
  areas: ReadonlyMap<string, AreaDef>;
  rooms: ReadonlyMap<string, RoomDef>;
  creatures: ReadonlyMap<string, CreatureTemplate>;
  items: ReadonlyMap<string, ItemTemplate>;
  npcs: ReadonlyMap<string, NpcTemplate>;
  recipes: ReadonlyMap<string, RecipeDef>;
  quests: ReadonlyMap<string, QuestDef>;
  companions: ReadonlyMap<string, CompanionTemplate>;
}

/** The area part of an `"area:id"` reference. */
export function areaOf(ref: string): string {
  return ref.slice(0, ref.indexOf(':'));
}

/** Builds `"area:id"`. */
export function refOf(areaId: string, id: string): string {
  return `${areaId}:${id}`;
}
