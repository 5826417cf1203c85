/**
 * The platform the multi-corpus evaluation talks to: the identity and brain areas started in this process on the
 * embedded MongoDB and Qdrant under a fresh DATA_DIR, with every default of the brain (local embedder, offline
 * reranker, extractive answers, graph and RAPTOR upkeep) and no first-start seed, so the index holds one corpus.
 * Everything goes through HTTP: POST /brain/ingest, /brain/search/v2 and /brain/ask with the service token.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { listSourceFiles, readSourceDocument } from '../../ai/corpus/repositoryFiles';
import { embeddedEngines } from '../../embedded';
import { loadConfig } from '../../platform/config';
import { createLogger } from '../../platform/logger';
import { Platform, type PlatformContext } from '../../platform/platform';
import { createAuthService } from '../../services/auth';
import { createBrainArea } from '../../services/brain';
import { sendJson } from '../support/postJson';
import type { EvalCorpus } from './corpusSet';

const TOKEN = 'bench-eval-service-token-0123456789';
const DOCUMENTS_PER_REQUEST = 50;

/** What an ingest of a corpus reports: documents stored, those refused (with why) and the chunk count. */
export interface CorpusIngest {
  documents: number;
  chunks: number;
  refused: string[];
  seconds: number;
  upkeepSeconds: number;
}

/** A running evaluation platform for one corpus. */
export interface EvalPlatform {
  /** POSTs `body` to `route` with the service token; answers the parsed JSON, throwing on a status of 400 or more. */
  post<T>(route: string, body: unknown): Promise<T>;
  /** Ingests the corpus's files and waits until the graph, the RAPTOR trees and every vector are ready. */
  ingest(corpus: EvalCorpus): Promise<CorpusIngest>;
  stop(): Promise<void>;
}

/**
 * The `BRAIN_*` settings of the bench's own environment, so an option can be measured as users would set it
 * (`BRAIN_ASK_SIMILARITY=neural npx tsx bench/brainEvalCorpora.ts`); printed once so a run says what it measured.
 */
function brainSettingsFromEnvironment(): Record<string, string> {
  const settings = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[0].startsWith('BRAIN_') && !!entry[1],
    ),
  );
  if (Object.keys(settings).length > 0 && !announced) {
    announced = true;
    console.error(`brain settings from the environment: ${JSON.stringify(settings)}`);
  }
  return settings;
}
let announced = false;

/** Starts a platform with an empty brain (and the environment's BRAIN_* settings). */
export async function startEvalPlatform(): Promise<EvalPlatform> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-brain-eval-'));
  const config = loadConfig({
    ...brainSettingsFromEnvironment(),
    PORT: '0',
    HOST: '127.0.0.1',
    ROLES: 'api',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    GATEWAY_RATE_LIMIT_PER_SECOND: '1000000',
    BRAIN_SERVICE_TOKEN: TOKEN,
    BRAIN_SEED_ON_START: '0',
    BRAIN_CACHE_KEY_PREFIX: `bench:brain-eval:${process.pid}:`,
  });
  const logger = createLogger({ level: config.LOG_LEVEL, destination: process.stderr });
  const parts = async (context: PlatformContext) => {
    const auth = createAuthService(context);
    const brain = await createBrainArea(context, auth);
    return { services: [auth.register, ...(brain.services ?? [])], close: () => auth.close() };
  };
  const platform = await Platform.start({ config, logger, parts, engines: embeddedEngines });
  const agent = new http.Agent({ keepAlive: true });
  const send = (method: string, route: string, body?: unknown) =>
    sendJson(agent, platform.port, method, route, body, TOKEN);
  const post = async <T>(route: string, body: unknown): Promise<T> => {
    const response = await send('POST', route, body);
    if (response.status >= 400) throw new Error(`${route} answered ${response.status}: ${response.body}`);
    return JSON.parse(response.body) as T;
  };
  return {
    post,
    ingest: (corpus) => ingestCorpus(corpus, send),
    stop: async () => {
      agent.destroy();
      await platform.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Send = (method: string, route: string, body?: unknown) => Promise<{ status: number; body: string }>;
type Document = { source: string; index: string; text: string };

/**
 * Ingests a corpus in batches. The service answers which documents it refused for holding a secret (207); a batch
 * refused as a whole (400: every document held one, or a malformed one) or failed (5xx) is sent again a document at
 * a time, so one bad file costs only itself. Each refusal is reported with its rule and line (never the value).
 */
async function ingestCorpus(corpus: EvalCorpus, send: Send): Promise<CorpusIngest> {
  const started = performance.now();
  const documents: Document[] = [];
  for (const folder of corpus.paths) {
    for (const source of await listSourceFiles(corpus.root, folder)) {
      const document = await readSourceDocument(corpus.root, source);
      // Third-party pages are documentation whatever their folder is called.
      documents.push(corpus.name === 'forge' ? document : { ...document, index: 'docs' });
    }
  }
  const refused: string[] = [];
  const sendBatch = async (batch: Document[]): Promise<void> => {
    const response = await send('POST', '/brain/ingest', { documents: batch });
    if (response.status < 300 || response.status === 207) {
      type Refusal = { source: string; findings: Array<{ rule: string; line: number }> };
      const body = JSON.parse(response.body) as { refused?: Refusal[] };
      for (const r of body.refused ?? [])
        refused.push(`${r.source} (${r.findings.map((f) => `${f.rule} at line ${f.line}`).join(', ')})`);
      return;
    }
    if ((response.status === 400 || response.status >= 500) && batch.length > 1) {
      for (const document of batch) await sendBatch([document]);
      return;
    }
    const problem = JSON.parse(response.body) as { code?: string; detail?: string };
    refused.push(`${batch[0].source} (${response.status} ${problem.code}: ${problem.detail})`);
  };
  for (let i = 0; i < documents.length; i += DOCUMENTS_PER_REQUEST)
    await sendBatch(documents.slice(i, i + DOCUMENTS_PER_REQUEST));
  const seconds = (performance.now() - started) / 1000;
  const upkeepStarted = performance.now();
  type Stats = {
    total_chunks: number;
    graph: { state: string };
    raptor: { state: string };
    enrichment: { vectors?: { pending: number } };
  };
  const stats = async () => JSON.parse((await send('GET', '/brain/stats')).body) as Stats;
  // Vectors land in the background too (searchable first): a question asked before they have all landed scores the
  // semantic strategies on a partial index, differently from run to run.
  const settled = (s: Stats) =>
    s.graph.state === 'ready' &&
    ['ready', 'empty'].includes(s.raptor.state) &&
    !s.enrichment?.vectors?.pending;
  let upkeep = await stats();
  while (!settled(upkeep)) {
    if (performance.now() - upkeepStarted > 600_000) {
      console.log(
        `graph ${upkeep.graph.state}, RAPTOR ${upkeep.raptor.state}, vectors pending ` +
          `${upkeep.enrichment?.vectors?.pending ?? 0} after 10 min: measured as they are`,
      );
      break;
    }
    await sleep(250);
    upkeep = await stats();
  }
  // The router calibrates its fusion weights on the corpus once it is quiet: measure after that, as a user would.
  const calibrating = async () => {
    const response = await send('POST', '/brain/search/v2', { query: 'How is this set up?', limit: 1 });
    return (JSON.parse(response.body) as { route?: { reason?: string } }).route?.reason?.includes(
      'not yet calibrated',
    );
  };
  while ((await calibrating()) && performance.now() - upkeepStarted < 900_000) await sleep(500);
  return {
    documents: documents.length - refused.length,
    chunks: upkeep.total_chunks,
    refused,
    seconds,
    upkeepSeconds: (performance.now() - upkeepStarted) / 1000,
  };
}
