import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import { PROJECT_ROOT } from '../../platform/projectRoot';
import { type ContentIssue, WorldContentError, issuesFromZod } from './contentError';
import { checkCrossReferences } from './crossReferences';
import { checkPlayability } from './reachability';
import { AREA_ENTRY_FILES, AreaFile, type AreaEntryKind, LocalId, WorldFile } from './schemas';
import { type AreaDef, type Located, type RoomDef, type World, refOf } from './world';

/** Where the shipped world lives: `<repo>/world`, also when the code runs compiled from `dist/`. */
export const DEFAULT_WORLD_DIR = path.join(PROJECT_ROOT, 'world');

type Mutable<T> = {
  -readonly [K in keyof T]: T[K] extends ReadonlyMap<infer K2, infer V> ? Map<K2, V> : T[K];
};

/**
 * Loads and validates the world under `dir` (default `world/`): `world.yml`, then one folder per area with
 * `area.yml` and optional `creatures|items|npcs|recipes|quests|companions.yml` (each a map of id → entry).
 * Collects every schema and cross-reference problem and throws one `WorldContentError` naming file and field.
 */
export async function loadWorld(dir: string = DEFAULT_WORLD_DIR): Promise<World> {
  const issues: ContentIssue[] = [];
  const worldFile = await readValidated(dir, 'world.yml', WorldFile, issues);
  const world: Mutable<World> = {
    name: worldFile?.name ?? '',
    startRoom: worldFile?.startRoom ?? '',
    help: new Map(Object.entries(worldFile?.help ?? {})),
    areas: new Map(),
    rooms: new Map(),
    creatures: new Map(),
    items: new Map(),
    npcs: new Map(),
    recipes: new Map(),
    quests: new Map(),
    companions: new Map(),
  };
  for (const areaId of await listAreaDirs(dir, issues)) {
    await loadArea(dir, areaId, world, issues);
  }
  if (issues.length === 0) issues.push(...checkCrossReferences(world));
  if (issues.length === 0) issues.push(...checkPlayability(world));
  if (issues.length > 0) throw new WorldContentError(issues);
  return world;
}

async function listAreaDirs(dir: string, issues: ContentIssue[]): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const areas = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const name of areas) {
    if (!LocalId.safeParse(name).success) {
      issues.push({ file: `${name}/`, path: '', message: 'area folder names must be lowercase ids' });
    }
  }
  if (areas.length === 0) issues.push({ file: '.', path: '', message: 'the world has no area folders' });
  return areas.filter((name) => LocalId.safeParse(name).success);
}

async function loadArea(dir: string, areaId: string, world: Mutable<World>, issues: ContentIssue[]) {
  const areaFile = await readValidated(dir, `${areaId}/area.yml`, AreaFile, issues);
  if (areaFile) {
    const { rooms, ...rest } = areaFile;
    const area: AreaDef = { ...rest, id: areaId, roomRefs: [] };
    for (const [id, room] of Object.entries(rooms)) {
      const def: RoomDef = { ...room, ...located(areaId, id) };
      world.rooms.set(def.ref, def);
      area.roomRefs.push(def.ref);
    }
    world.areas.set(areaId, area);
  }
  for (const kind of Object.keys(AREA_ENTRY_FILES) as AreaEntryKind[]) {
    const file = `${areaId}/${kind}.yml`;
    if (!(await exists(path.join(dir, file)))) continue;
    const entries = await readValidated(dir, file, z.record(LocalId, AREA_ENTRY_FILES[kind]), issues);
    for (const [id, entry] of Object.entries(entries ?? {})) {
      const target = world[kind] as Map<string, unknown>;
      target.set(refOf(areaId, id), { ...entry, ...located(areaId, id) });
    }
  }
}

function located(areaId: string, id: string): Located {
  return { ref: refOf(areaId, id), areaId, id };
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** Reads a YAML file and validates it; problems go to `issues` and the result is undefined. */
async function readValidated<S extends z.ZodType>(
  dir: string,
  file: string,
  schema: S,
  issues: ContentIssue[],
): Promise<z.output<S> | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(dir, file), 'utf8');
  } catch {
    issues.push({ file, path: '', message: 'file is missing' });
    return undefined;
  }
  const document = YAML.parseDocument(text);
  if (document.errors.length > 0) {
    issues.push(...document.errors.map((error) => ({ file, path: '', message: `YAML: ${error.message}` })));
    return undefined;
  }
  const parsed = schema.safeParse(document.toJS());
  if (!parsed.success) {
    issues.push(...issuesFromZod(file, parsed.error));
    return undefined;
  }
  return parsed.data;
}
