import type { Connection } from 'mongoose';
import { redactSecrets, scanForSecrets, type SecretKind } from '../../../ai/memory/secretScanner';
import { brainChunkModel } from '../../../models/BrainChunk';
import type { MemoryKeeper } from '../memory/memoryKeeper';
import { contentHash } from '../memory/memoryKeeper';

/** Where a finding is: a memory (id, subject) or a corpus chunk (source, chunk id). Never the secret. */
export interface SweepFinding {
  kind: SecretKind;
  where: 'memory' | 'corpus';
  memory_id: string | null;
  subject: string | null;
  source: string | null;
  chunk_id: string | null;
  line: number;
  start: number;
  length: number;
}

/** What to sweep: one subject's memories or all, and whether the corpus too. */
export interface SweepScope {
  subject?: string;
  corpus: boolean;
  limit: number;
}

/** Memories and chunks read per batch. */
const BATCH = 500;

/**
 * Finds private keys, mnemonics, API tokens and e-mail addresses in memories and the corpus (`scanForSecrets`),
 * naming where each is, never echoing it; `redactMemories` replaces them in place with `[redacted:<kind>]` and
 * re-indexes the memory (vectors, fulltext).
 */
export class SecretSweep {
  constructor(
    private readonly memory: MemoryKeeper,
    private readonly mongo: Connection,
  ) {}

  async scan(scope: SweepScope): Promise<SweepFinding[]> {
    const findings: SweepFinding[] = [];
    let after = '';
    while (findings.length < scope.limit) {
      const batch = await this.memory.memories
        .find(
          { ...(scope.subject ? { subject: scope.subject } : {}), _id: { $gt: after } },
          { subject: 1, content: 1 },
        )
        .sort({ _id: 1 })
        .limit(BATCH)
        .lean();
      if (batch.length === 0) break;
      for (const doc of batch) {
        for (const f of scanForSecrets(doc.content)) {
          findings.push({
            kind: f.kind,
            where: 'memory',
            memory_id: doc._id,
            subject: doc.subject,
            source: null,
            chunk_id: null,
            line: f.line,
            start: f.start,
            length: f.length,
          });
        }
      }
      after = batch[batch.length - 1]._id;
    }
    if (scope.corpus) {
      let chunkAfter = '';
      while (findings.length < scope.limit) {
        const chunks = await brainChunkModel(this.mongo)
          .find({ _id: { $gt: chunkAfter } }, { source: 1, text: 1, startLine: 1 })
          .sort({ _id: 1 })
          .limit(BATCH)
          .lean();
        if (chunks.length === 0) break;
        for (const chunk of chunks) {
          for (const f of scanForSecrets(chunk.text)) {
            const line = f.line + (chunk.startLine ?? 1) - 1;
            findings.push({
              kind: f.kind,
              where: 'corpus',
              memory_id: null,
              subject: null,
              source: chunk.source,
              chunk_id: chunk._id,
              line,
              start: f.start,
              length: f.length,
            });
          }
        }
        chunkAfter = chunks[chunks.length - 1]._id;
      }
    }
    return findings.slice(0, scope.limit);
  }

  /** Redacts every finding in the given memories (of `subject` when given); answers per memory what was redacted. */
  async redactMemories(ids: readonly string[], subject?: string) {
    const docs = await this.memory.memories
      .find({ _id: { $in: [...ids] }, ...(subject ? { subject } : {}) })
      .lean();
    const redacted: { memory_id: string; subject: string; kinds: SecretKind[] }[] = [];
    for (const doc of docs) {
      const findings = scanForSecrets(doc.content);
      if (findings.length === 0) continue;
      const content = redactSecrets(doc.content, findings);
      const { model, vector } = await this.memory.embedContent(content);
      await this.memory.memories.updateOne(
        { _id: doc._id },
        { $set: { content, content_hash: contentHash(content), vector_model: model } },
      );
      await this.memory.options.vectors.upsert(model, [
        { id: doc._id, subject: doc.subject, tier: doc.tier, vector },
      ]);
      this.memory.text.add(doc.subject, { id: doc._id, tier: doc.tier, content, hash: contentHash(content) });
      redacted.push({
        memory_id: doc._id,
        subject: doc.subject,
        kinds: [...new Set(findings.map((f) => f.kind))],
      });
    }
    return redacted;
  }
}
