/**
 * Audit log speed (issue 21): AUDIT events (default 1,000,000) of the platform's kinds over 10 days are written
 * straight into an embedded MongoDB (with their signatures embedded into an embedded Qdrant through the brain's
 * chain, as the log does), then:
 * - semantic audit search (`searchAudit`: embed the query, nearest signatures, newest matching events) for 60 queries
 *   of several shapes, p50/p95, against a baseline measured in the same run: the indexed read of one kind's newest
 *   20 events (`find({kind}).sort({at:-1}).limit(20)`), the least any search must do. Target: p95 < 100 ms.
 * - pattern detection over the busiest day (`detectPatterns`, window 24h), 3 runs.
 * The load average is printed before and after: the machine is shared, read the figures against it.
 * Run: npx tsx bench/adminAudit.ts [events=1000000]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { QdrantClient } from '@qdrant/js-client-rest';
import { Types } from 'mongoose';
import { EmbeddingChain } from '../ai/embeddings/embeddingChain';
import { startMongoEngine } from '../embedded/mongo';
import { startQdrantEngine } from '../embedded/qdrant';
import { userModel } from '../models/User';
import { ManualClock } from '../platform/clock';
import { loadConfig } from '../platform/config';
import { silentLogger } from '../platform/logger';
import { connectMongo } from '../platform/stores/mongo';
import { AuditLog } from '../services/admin/audit/auditLog';
import { searchAudit } from '../services/admin/audit/auditSearch';
import { auditText, hourOf, signatureOf } from '../services/admin/audit/auditText';
import { SignatureVectors } from '../services/admin/audit/signatureVectors';
import { embeddingProvidersFrom } from '../ai/embeddings/embeddingProviders';
import { detectPatterns } from '../services/admin/patternDetection';
import { percentile } from './support/stats';

const EVENTS = Number(process.argv[2] ?? 1_000_000);
const DAYS = 10;
const USERS = 5000;
const END = Date.UTC(2026, 10, 26);
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** An event template and its share of traffic. */
interface Template {
  kind: string;
  outcome: string;
  weight: number;
  target?: string[];
  details?: Array<Record<string, unknown>>;
}

/** Event templates with their share of traffic. */
const TEMPLATES: Template[] = [
  {
    kind: 'mcp.tool_call',
    outcome: 'ok',
    weight: 30,
    target: ['brain_search', 'world_look', 'world_move', 'gateway_health'],
  },
  {
    kind: 'auth.sign_in',
    outcome: 'ok',
    weight: 20,
    details: [{ method: 'wallet' }, { method: 'email' }, { method: 'guest' }],
  },
  {
    kind: 'auth.sign_in_failed',
    outcome: 'failed',
    weight: 4,
    details: [
      { code: 'SIWE_SIGNATURE_INVALID' },
      { code: 'EMAIL_LOGIN_FAILED' },
      { code: 'SIWE_NONCE_REPLAYED' },
    ],
  },
  { kind: 'economy.transfer', outcome: 'ok', weight: 15, details: [{ currency: 'soft' }] },
  {
    kind: 'economy.grant',
    outcome: 'ok',
    weight: 8,
    details: [
      { currency: 'soft', reason: 'quest reward' },
      { currency: 'soft', reason: 'daily bonus' },
    ],
  },
  { kind: 'marketplace.sale', outcome: 'ok', weight: 10, details: [{ currency: 'soft' }] },
  {
    kind: 'signer.request',
    outcome: 'ok',
    weight: 8,
    details: [{ type: 'forge-start' }, { type: 'punk-seed-mint' }],
  },
  {
    kind: 'signer.request',
    outcome: 'refused',
    weight: 3,
    details: [{ type: 'forge-start', code: 'SIGNER_FORGE_COOLDOWN' }],
  },
  {
    kind: 'signer.reuse_alert',
    outcome: 'alert',
    weight: 0.05,
    details: [{ reason: 'signature_already_used' }],
  },
  { kind: 'auth.roles_changed', outcome: 'ok', weight: 0.2, details: [{ roles: ['player', 'creator'] }] },
];
const TOTAL_WEIGHT = TEMPLATES.reduce((sum, t) => sum + t.weight, 0);

function pick<T>(items: T[], n: number): T {
  return items[n % items.length];
}

async function main(): Promise<void> {
  console.log(`load before: ${load()}  events: ${EVENTS}`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-admin-audit-'));
  const mongo = await startMongoEngine({ dir: path.join(dir, 'mongo') });
  const qdrant = await startQdrantEngine({ dir: path.join(dir, 'qdrant') });
  const connection = await connectMongo(mongo.uri, 'bench', silentLogger);
  const clock = new ManualClock(END);
  try {
    const chain = new EmbeddingChain({
      providers: embeddingProvidersFrom(loadConfig({})),
      clock,
      logger: silentLogger,
    });
    const vectors = await SignatureVectors.open(new QdrantClient({ url: qdrant.url }), chain, silentLogger);
    const audit = await AuditLog.open(connection, { vectors, clock, logger: silentLogger });
    const users = Array.from({ length: USERS }, () => new Types.ObjectId());
    await userModel(connection).collection.insertMany(
      users.map((_id, i) => ({
        _id,
        roles: ['player'],
        tier: 1,
        createdAt: new Date(END - (i % 400) * 86_400_000),
        updatedAt: new Date(END),
      })),
    );
    const signatures = new Map<
      string,
      { text: string; kind: string; count: number; first: Date; last: Date }
    >();
    const written = performance.now();
    const span = DAYS * 86_400_000;
    for (let start = 0; start < EVENTS; start += 10_000) {
      const batch = [];
      for (let i = start; i < Math.min(EVENTS, start + 10_000); i += 1) {
        let roll = (((i * 2654435761) % 1_000_003) / 1_000_003) * TOTAL_WEIGHT;
        const template = TEMPLATES.find((t) => (roll -= t.weight) < 0) ?? TEMPLATES[0];
        // The last day is the busiest (a third of all events).
        const at = new Date(i % 3 === 0 ? END - ((i * 7919) % 86_400_000) : END - ((i * 104_729) % span));
        const user = users[(i * 31) % USERS].toHexString();
        const event = {
          at,
          actor: template.kind.startsWith('auth.sign_in_failed') ? 'anonymous' : `user:${user}`,
          kind: template.kind,
          target: template.target
            ? pick(template.target, i)
            : `user:${users[(i * 17) % USERS].toHexString()}`,
          outcome: template.outcome,
          ip: `10.${i % 200}.${(i >> 8) % 250}.1`,
          request_id: null,
          details: {
            ...(template.details ? pick(template.details, i) : {}),
            ...(template.kind.startsWith('economy') || template.kind === 'marketplace.sale'
              ? { amount: 5 + (i % 500) }
              : {}),
          },
        };
        const text = auditText(event);
        const sig = signatureOf(text);
        const known = signatures.get(sig);
        if (known) {
          known.count += 1;
          if (at < known.first) known.first = at;
          if (at > known.last) known.last = at;
        } else signatures.set(sig, { text, kind: event.kind, count: 1, first: at, last: at });
        batch.push({ ...event, hour: hourOf(at), sig });
      }
      await audit.stores.events.collection.insertMany(batch, { ordered: false });
    }
    await audit.stores.signatures.collection.insertMany(
      [...signatures].map(([sig, s]) => ({
        _id: sig as never,
        text: s.text,
        kind: s.kind,
        count: s.count,
        first_seen: s.first,
        last_seen: s.last,
      })),
    );
    await vectors.index([...signatures].map(([sig, s]) => ({ sig, kind: s.kind, text: s.text })));
    console.log(
      `wrote ${EVENTS} events (${signatures.size} signatures) in ${((performance.now() - written) / 1000).toFixed(1)} s`,
    );

    const queries = [
      { query: 'failed login attempts' },
      { query: 'signature reuse replay alerts' },
      { query: 'who was granted coins as a daily bonus' },
      { query: 'refused forge signature requests', from: new Date(END - 86_400_000) },
      { query: 'marketplace sales', actor: `user:${users[42].toHexString()}` },
      { query: 'role changes to creator' },
    ];
    const baseline: number[] = [];
    const searches: number[] = [];
    const perQuery = new Map<string, number[]>();
    for (let round = 0; round < 10; round += 1) {
      for (const q of queries) {
        let started = performance.now();
        await audit.stores.events.find({ kind: 'auth.sign_in_failed' }).sort({ at: -1 }).limit(20).lean();
        baseline.push(performance.now() - started);
        started = performance.now();
        await searchAudit(audit.stores, { ...q, limit: 20 });
        const took = performance.now() - started;
        searches.push(took);
        const label = `${q.query}${q.actor ? ' (actor filter)' : ''}${q.from ? ' (last day)' : ''}`;
        perQuery.set(label, [...(perQuery.get(label) ?? []), took]);
      }
    }
    for (const [name, samples] of [
      ['baseline find(kind) newest 20', baseline],
      ['semantic audit search', searches],
    ] as const) {
      const sorted = [...samples].sort((a, b) => a - b);
      console.log(
        `${name}: p50 ${percentile(sorted, 50).toFixed(1)} ms  p95 ${percentile(sorted, 95).toFixed(1)} ms  (${samples.length} runs)`,
      );
    }
    for (const [label, samples] of perQuery) {
      const sorted = [...samples].sort((a, b) => a - b);
      console.log(
        `  "${label}": p50 ${percentile(sorted, 50).toFixed(1)} ms  p95 ${percentile(sorted, 95).toFixed(1)} ms`,
      );
    }
    const sortedSearch = [...searches].sort((a, b) => a - b);
    const sortedBase = [...baseline].sort((a, b) => a - b);
    console.log(
      `search/baseline p95 ratio: ${(percentile(sortedSearch, 95) / Math.max(0.01, percentile(sortedBase, 95))).toFixed(2)}`,
    );

    const users_ = userModel(connection);
    for (let run = 0; run < 3; run += 1) {
      const started = performance.now();
      const report = await detectPatterns(
        { events: audit.stores.events, users: users_, clock },
        { window: '24h' },
      );
      console.log(
        `pattern detection over the last day: ${((performance.now() - started) / 1000).toFixed(2)} s, ${report.events_scanned} events${report.truncated ? ' (truncated)' : ''}, ${report.anomalies.length} anomalies`,
      );
    }
  } finally {
    await connection.close();
    await mongo.close();
    await qdrant.close();
    await fs.rm(dir, { recursive: true, force: true });
    console.log(`load after: ${load()}`);
  }
}

void main();
