/**
 * The FULLTEXT index (ai/fulltext) and the maintained BM25 libraries of the npm registry behind one small
 * interface, each given the same chunks, fields, field weights (symbols 3, title 2, source 1.5, text 1),
 * BM25 parameters (k1 1.2, b 0.75) and term analysis (ai/text/terms), for bench/brainFulltextLibraries.ts.
 * The libraries are not dependencies of the platform: they are loaded only when installed, here or in a
 * folder given to the bench (`npm install --prefix /tmp/fulltext-libraries @orama/orama minisearch
 * wink-bm25-text-search`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chunkDisplayTitle, type ChunkRecord, type IndexName } from '../../models/corpusRecords';
import { DEFAULT_FULLTEXT_OPTIONS, FullTextIndex } from '../../ai/fulltext/fullTextIndex';
import { analyze } from '../../ai/text/terms';

/** A ranked chunk id. */
export interface Ranked {
  id: string;
  score: number;
}

/** One fulltext engine under test. `replace` is missing when the engine cannot change after building. */
export interface FulltextEngine {
  build(chunks: readonly ChunkRecord[]): Promise<void>;
  search(query: string, limit: number, indexes?: readonly IndexName[]): Promise<Ranked[]>;
  replace?(old: readonly ChunkRecord[], fresh: readonly ChunkRecord[]): Promise<void>;
}

/** A named engine factory and the installed library's version. */
export interface EngineCandidate {
  name: string;
  version: string;
  create(): FulltextEngine;
}

const BOOSTS = DEFAULT_FULLTEXT_OPTIONS.boosts;
const K1 = 1.2;
const B = 0.75;

function fieldsOf(chunk: ChunkRecord) {
  return {
    id: chunk.id,
    index: chunk.index,
    symbols: chunk.symbols.join(' '),
    title: chunkDisplayTitle(chunk),
    source: chunk.source,
    text: chunk.text,
  };
}

function inHouse(): FulltextEngine {
  const index = new FullTextIndex();
  return {
    build: async (chunks) => index.rebuild(chunks),
    search: async (query, limit, indexes) =>
      index
        .search(query, { limit, indexes, snippets: false })
        .map((h) => ({ id: h.chunkId, score: h.score })),
    replace: async (old, fresh) => {
      index.remove(old.map((c) => c.id));
      index.add(fresh);
    },
  };
}

interface MiniSearchResult {
  id: string;
  score: number;
  index: IndexName;
}
interface MiniSearchInstance {
  addAll(documents: object[]): void;
  discard(id: string): void;
  search(query: string, options?: { filter?: (result: MiniSearchResult) => boolean }): MiniSearchResult[];
}
type MiniSearchClass = new (options: object) => MiniSearchInstance;

/** MiniSearch: BM25+ per field (d = 0.5, its default; d = 0 gave the same recall on the eval set), OR. */
function miniSearch(MiniSearch: MiniSearchClass): FulltextEngine {
  let engine: MiniSearchInstance;
  return {
    build: async (chunks) => {
      engine = new MiniSearch({
        fields: ['symbols', 'title', 'source', 'text'],
        storeFields: ['index'],
        tokenize: analyze,
        processTerm: (term: string) => term,
        searchOptions: { boost: BOOSTS, combineWith: 'OR', bm25: { k: K1, b: B, d: 0.5 } },
      });
      engine.addAll(chunks.map(fieldsOf));
    },
    search: async (query, limit, indexes) => {
      const filter = indexes ? (r: MiniSearchResult) => indexes.includes(r.index) : undefined;
      return engine.search(query, { filter }).slice(0, limit);
    },
    replace: async (old, fresh) => {
      for (const chunk of old) engine.discard(chunk.id);
      engine.addAll(fresh.map(fieldsOf));
    },
  };
}

interface OramaModule {
  create(options: object): unknown;
  insertMultiple(db: unknown, documents: object[], batchSize?: number): Promise<unknown> | unknown;
  insert(db: unknown, document: object): Promise<unknown> | unknown;
  remove(db: unknown, id: string): Promise<unknown> | unknown;
  search(db: unknown, params: object): Promise<{ hits: Ranked[] }> | { hits: Ranked[] };
}

/**
 * Orama: BM25 per property with boosts; its tokenizer replaced by ours, returning distinct terms as its own
 * does (Orama counts a repeated token once per occurrence in its document frequencies). Terms match as
 * prefixes: `exact: true` would also demand every raw query word verbatim in the text.
 */
function orama(lib: OramaModule): FulltextEngine {
  let db: unknown;
  const tokenizer = {
    language: 'english',
    normalizationCache: new Map(),
    tokenize: (raw: string) => [...new Set(analyze(raw))],
  };
  return {
    build: async (chunks) => {
      db = lib.create({
        schema: { index: 'enum', symbols: 'string', title: 'string', source: 'string', text: 'string' },
        components: { tokenizer },
      });
      await lib.insertMultiple(db, chunks.map(fieldsOf), 1000);
    },
    search: async (query, limit, indexes) => {
      const result = await lib.search(db, {
        term: query,
        limit,
        boost: BOOSTS,
        relevance: { k: K1, b: B, d: 0.5 },
        threshold: 1,
        ...(indexes ? { where: { index: { in: indexes } } } : {}),
      });
      return result.hits.map((h) => ({ id: h.id, score: h.score }));
    },
    replace: async (old, fresh) => {
      for (const chunk of old) await lib.remove(db, chunk.id);
      for (const chunk of fresh) await lib.insert(db, fieldsOf(chunk));
    },
  };
}

interface WinkEngine {
  defineConfig(config: object): void;
  definePrepTasks(tasks: ((text: string) => string[])[]): void;
  addDoc(document: object, id: string): void;
  consolidate(precision?: number): void;
  search(
    query: string,
    limit: number,
    filter?: (values: { index: IndexName }) => boolean,
  ): [string, number][];
}

/** wink-bm25-text-search: BM25F (weighted field frequencies, as ours); no document can be added after `consolidate`. */
function wink(createEngine: () => WinkEngine): FulltextEngine {
  let engine: WinkEngine;
  return {
    build: async (chunks) => {
      engine = createEngine();
      engine.defineConfig({
        fldWeights: BOOSTS,
        bm25Params: { k1: K1, b: B, k: 1 },
        ovFieldNames: ['index'],
      });
      engine.definePrepTasks([analyze]);
      for (const chunk of chunks) engine.addDoc(fieldsOf(chunk), chunk.id);
      engine.consolidate(4);
    },
    search: async (query, limit, indexes) =>
      engine
        .search(query, limit, indexes ? (values) => indexes.includes(values.index) : undefined)
        .map(([id, score]) => ({ id, score })),
  };
}

/** Requires an installed package from `from` (a folder with node_modules) and reads its version. */
function optional<T>(from: string, name: string): { module: T; version: string } | undefined {
  const load = createRequire(join(from, 'package.json'));
  let main: string;
  try {
    main = load.resolve(name);
  } catch {
    return undefined;
  }
  for (let dir = dirname(main); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name: found, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name?: string;
      version: string;
    };
    if (found === name) return { module: load(name) as T, version };
  }
  return undefined;
}

/**
 * The in-house index and every library installed under `from` (a folder holding node_modules, by default the
 * repository); `missing` names the libraries that are not installed.
 */
export function loadEngines(from: string): { engines: EngineCandidate[]; missing: string[] } {
  const engines: EngineCandidate[] = [{ name: 'in-house Bm25Index', version: '-', create: inHouse }];
  const missing: string[] = [];
  const mini = optional<MiniSearchClass | { default: MiniSearchClass }>(from, 'minisearch');
  if (mini)
    engines.push({
      name: 'minisearch',
      version: mini.version,
      create: () => miniSearch('default' in mini.module ? mini.module.default : mini.module),
    });
  else missing.push('minisearch');
  const oramaLib = optional<OramaModule>(from, '@orama/orama');
  if (oramaLib)
    engines.push({ name: '@orama/orama', version: oramaLib.version, create: () => orama(oramaLib.module) });
  else missing.push('@orama/orama');
  const winkLib = optional<() => WinkEngine>(from, 'wink-bm25-text-search');
  if (winkLib)
    engines.push({
      name: 'wink-bm25-text-search',
      version: winkLib.version,
      create: () => wink(winkLib.module),
    });
  else missing.push('wink-bm25-text-search');
  return { engines, missing };
}
