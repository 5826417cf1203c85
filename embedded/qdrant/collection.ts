import { indexParamsOf, type CollectionConfig } from './collectionConfig';
import { mergePayload, overwritePayload, valuesAtPath, type Payload } from './payload';
import { isLookupIndex, textIndexOptions, type PayloadIndexSpec } from './payloadIndexSpec';
import { PayloadLookup } from './payloadLookup';
import { comparePointIds, pointKey, type PointId } from './pointId';
import type { Filter } from './schemas/filterSchema';
import { compileFilter, type FilterContext, type FilterTarget } from './search/filter';
import { VectorIndex, type CandidateFilter } from './search/vectorIndex';
import type { CollectionOp, StoredPoint } from './storage/recordCodec';

/** Points tested to estimate how selective an unindexed filter is. */
const SELECTIVITY_SAMPLE = 512;

/** A stored point: its id, internal label (shared by all its vectors), payload and last-change version. */
export interface PointRecord {
  id: PointId;
  label: number;
  payload: Payload;
  version: number;
}

/**
 * The in-memory state of one collection and the only code that changes it (`apply`). Every change arrives as
 * a `CollectionOp` that was validated and logged first, so replaying the log rebuilds exactly this state.
 */
export class Collection {
  readonly vectors = new Map<string, VectorIndex>();
  readonly payloadIndexes = new Map<string, PayloadIndexSpec>();
  /** Sequence number of the last applied operation (Qdrant's `operation_id`). */
  lastSeq = 0;
  private readonly points = new Map<string, PointRecord>();
  private readonly byLabel: (PointRecord | undefined)[] = [];
  private readonly freeLabels: number[] = [];
  private readonly lookup = new PayloadLookup();
  private idOrder: PointRecord[] | null = null;

  /** True when some vector builds per-partition graphs (`m: 0` with `payload_m`). */
  private readonly partitioned: boolean;

  constructor(
    readonly name: string,
    readonly config: CollectionConfig,
  ) {
    for (const [vectorName, vector] of Object.entries(config.vectors)) {
      this.vectors.set(
        vectorName,
        new VectorIndex(vector.size, vector.distance, indexParamsOf(config, vector)),
      );
    }
    this.partitioned = [...this.vectors.values()].some((index) => index.partitioned);
  }

  get size(): number {
    return this.points.size;
  }

  get(id: PointId): PointRecord | undefined {
    return this.points.get(pointKey(id));
  }

  byLabelOf(label: number): PointRecord | undefined {
    return this.byLabel[label];
  }

  /** All points in Qdrant's id order (cached until a point is added or removed). */
  inIdOrder(): PointRecord[] {
    this.idOrder ??= [...this.points.values()].sort((a, b) => comparePointIds(a.id, b.id));
    return this.idOrder;
  }

  /** What compiled filters need to know about this collection. */
  filterContext(): FilterContext {
    return {
      textIndex: (key) => {
        const spec = this.payloadIndexes.get(key);
        return spec ? textIndexOptions(spec) : undefined;
      },
      vectorNames: new Set(this.vectors.keys()),
    };
  }

  /**
   * Points matching a filter. Top-level `must` match conditions on lookup-indexed keys narrow the scan to
   * their candidates; the full filter is still checked on every candidate.
   */
  matching(filter: Filter | null | undefined): PointRecord[] {
    if (!filter) return [...this.points.values()];
    const predicate = compileFilter(filter, this.filterContext());
    const candidates = this.indexedCandidates(filter)?.labels;
    const pool = candidates
      ? [...candidates].map((label) => this.byLabel[label]).filter((p): p is PointRecord => p !== undefined)
      : this.points.values();
    const matched: PointRecord[] = [];
    for (const point of pool) if (predicate(this.filterTarget(point))) matched.push(point);
    return matched;
  }

  /**
   * A filter as the vector index consumes it. The selectivity estimate comes from a payload index when a
   * `must` match condition has one, else from testing an evenly spread sample of points; the per-label test
   * is memoised so a graph walk evaluates each visited point once.
   */
  candidateFilter(filter: Filter, eligible: (label: number) => boolean): CandidateFilter {
    const predicate = compileFilter(filter, this.filterContext());
    const { labels: indexed, partition } = this.indexedCandidates(filter) ?? {};
    const verdicts = new Int8Array(this.byLabel.length);
    const allows = (label: number): boolean => {
      if (verdicts[label] !== 0) return verdicts[label] === 1;
      const point = this.byLabel[label];
      const allowed =
        !!point && (!indexed || indexed.has(label)) && eligible(label) && predicate(this.filterTarget(point));
      verdicts[label] = allowed ? 1 : -1;
      return allowed;
    };
    const all = () => {
      const labels = indexed ? [...indexed] : this.byLabel.map((_, label) => label);
      return labels.filter(allows);
    };
    if (indexed) return { estimate: indexed.size, partition, allows, all };
    const stride = Math.max(1, Math.floor(this.byLabel.length / SELECTIVITY_SAMPLE));
    let sampled = 0;
    let passed = 0;
    for (let label = 0; label < this.byLabel.length; label += stride) {
      if (!this.byLabel[label]) continue;
      sampled++;
      if (allows(label)) passed++;
    }
    return { estimate: sampled === 0 ? 0 : (passed / sampled) * this.points.size, allows, all };
  }

  filterTarget(point: PointRecord): FilterTarget {
    return {
      id: point.id,
      payload: point.payload,
      hasVector: (name) => !!this.vectors.get(name)?.has(point.label),
    };
  }

  /** Applies one logged operation. Never throws for an operation that passed validation. */
  apply(seq: number, op: CollectionOp): void {
    this.lastSeq = Math.max(this.lastSeq, seq);
    switch (op.type) {
      case 'upsert':
        for (const point of op.points) this.upsertPoint(point, seq);
        return;
      case 'delete':
        for (const id of op.ids) this.deletePoint(id);
        return;
      case 'set_payload':
      case 'overwrite_payload':
        for (const id of op.ids) {
          const point = this.get(id);
          if (!point) continue;
          const next =
            op.type === 'set_payload'
              ? mergePayload(point.payload, op.payload, op.key)
              : overwritePayload(point.payload, op.payload, op.key);
          this.replacePayload(point, next, seq);
        }
        return;
      case 'create_index':
        this.payloadIndexes.set(op.field, op.schema);
        this.lookup.removeField(op.field);
        if (isLookupIndex(op.schema)) this.lookup.addField(op.field, this.points.values());
        this.reassignPartitions();
        return;
      case 'delete_index':
        this.payloadIndexes.delete(op.field);
        this.lookup.removeField(op.field);
        this.reassignPartitions();
        return;
    }
  }

  /** After a snapshot restored points with their saved labels, makes the unused labels available again. */
  reclaimFreeLabels(): void {
    this.freeLabels.length = 0;
    for (let label = this.byLabel.length - 1; label >= 0; label--) {
      if (this.byLabel[label] === undefined) this.freeLabels.push(label);
    }
  }

  /** Number of points with a value under `field` (the `points` figure of a payload index). */
  countWithField(field: string): number {
    let count = 0;
    for (const point of this.points.values()) if (valuesAtPath(point.payload, field).length > 0) count++;
    return count;
  }

  private upsertPoint(point: StoredPoint, seq: number): void {
    const key = pointKey(point.id);
    let record = this.points.get(key);
    if (record) {
      this.lookup.remove(record.label, record.payload);
      record.payload = point.payload;
      record.version = seq;
    } else {
      const label = point.label ?? this.freeLabels.pop() ?? this.byLabel.length;
      record = { id: point.id, label, payload: point.payload, version: seq };
      this.points.set(key, record);
      this.byLabel[label] = record;
      this.idOrder = null;
    }
    this.lookup.insert(record.label, record.payload);
    for (const [name, index] of this.vectors) {
      const vector = point.vectors[name];
      if (vector) index.set(record.label, vector);
      else index.remove(record.label);
    }
    this.assignPartitions(record);
  }

  private deletePoint(id: PointId): void {
    const key = pointKey(id);
    const record = this.points.get(key);
    if (!record) return;
    this.lookup.remove(record.label, record.payload);
    for (const index of this.vectors.values()) index.remove(record.label);
    this.points.delete(key);
    this.byLabel[record.label] = undefined;
    this.freeLabels.push(record.label);
    this.idOrder = null;
  }

  private replacePayload(point: PointRecord, payload: Payload, seq: number): void {
    this.lookup.remove(point.label, point.payload);
    point.payload = payload;
    point.version = seq;
    this.lookup.insert(point.label, payload);
    this.assignPartitions(point);
  }

  /**
   * Tells partitioned vector indexes (`m: 0` with `payload_m`) which payload partitions a point is in: one per
   * value of each lookup-indexed field, as Qdrant builds payload graphs for indexed values.
   */
  private assignPartitions(point: PointRecord): void {
    if (!this.partitioned) return;
    const keys: string[] = [];
    for (const [field, spec] of this.payloadIndexes) {
      if (!isLookupIndex(spec)) continue;
      for (const value of valuesAtPath(point.payload, field)) {
        if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
          keys.push(partitionKey(field, value));
      }
    }
    for (const index of this.vectors.values()) index.assignPartitions(point.label, keys);
  }

  private reassignPartitions(): void {
    if (this.partitioned) for (const point of this.points.values()) this.assignPartitions(point);
  }

  /**
   * The smallest candidate set a top-level `must` match on a lookup-indexed key gives, and its partition when it
   * matches one value.
   */
  private indexedCandidates(filter: Filter): { labels: Set<number>; partition?: string } | undefined {
    const must = filter.must === null || filter.must === undefined ? [] : [filter.must].flat();
    let best: { labels: Set<number>; partition?: string } | undefined;
    for (const condition of must) {
      if (!('key' in condition) || !condition.match) continue;
      const spec = this.payloadIndexes.get(condition.key);
      if (!spec || !isLookupIndex(spec)) continue;
      const match = condition.match;
      const wanted = 'value' in match ? [match.value] : 'any' in match ? match.any : undefined;
      const labels = wanted && this.lookup.labelsMatching(condition.key, wanted);
      if (!labels || (best && labels.size >= best.labels.size)) continue;
      const partition = wanted.length === 1 ? partitionKey(condition.key, wanted[0]) : undefined;
      best = { labels, partition };
    }
    return best;
  }
}

/** A payload partition's key: the field and the value with its type (`"1"` and `1` differ). */
function partitionKey(field: string, value: unknown): string {
  return `${field}\u0000${JSON.stringify(value)}`;
}
