import { z } from 'zod';
import { unsupported, validationError } from './errors';
import type { Distance } from './search/distance';
import type { IndexParams } from './search/vectorIndex';

const hnswDiffSchema = z.looseObject({
  m: z.number().int().nonnegative().nullish(),
  ef_construct: z.number().int().positive().nullish(),
  full_scan_threshold: z.number().int().nonnegative().nullish(),
  payload_m: z.number().int().nonnegative().nullish(),
});

const vectorParamsSchema = z.looseObject({
  size: z.number().int(),
  distance: z.enum(['Cosine', 'Dot', 'Euclid', 'Manhattan']),
  hnsw_config: hnswDiffSchema.nullish(),
  quantization_config: z.unknown().optional(),
  multivector_config: z.unknown().optional(),
  datatype: z.string().nullish(),
  on_disk: z.boolean().nullish(),
});

/** Zod schema of `PUT /collections/{name}`; options that do not change results are accepted and ignored. */
export const createCollectionSchema = z.looseObject({
  vectors: z.union([vectorParamsSchema, z.record(z.string(), vectorParamsSchema)]).optional(),
  hnsw_config: hnswDiffSchema.nullish(),
  optimizers_config: z
    .looseObject({ indexing_threshold: z.number().int().nonnegative().nullish() })
    .nullish(),
  sparse_vectors: z.record(z.string(), z.unknown()).nullish(),
  quantization_config: z.unknown().optional(),
  on_disk_payload: z.boolean().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});

/** HNSW settings in Qdrant's names. */
export interface HnswSettings {
  m: number;
  ef_construct: number;
  full_scan_threshold: number;
  /** `m` of the per-value graphs of indexed payload fields; they are built only when `m` is 0. */
  payload_m?: number;
}

/** One dense vector's configuration; the unnamed default vector is stored under the name `""`. */
export interface VectorConfig {
  size: number;
  distance: Distance;
  hnsw: HnswSettings;
  /** The per-vector `hnsw_config` as given, echoed back by collection info. */
  hnswOverride?: Partial<HnswSettings>;
}

/** A collection's durable configuration (written once, at creation). */
export interface CollectionConfig {
  /** True when vectors were given as a name → params map. */
  named: boolean;
  vectors: Record<string, VectorConfig>;
  hnsw: HnswSettings;
  indexingThresholdKb: number;
  onDiskPayload: boolean;
  metadata?: Record<string, unknown>;
}

/** Qdrant's defaults (config/config.yaml of the Qdrant server). */
export const qdrantDefaults = {
  hnsw: { m: 16, ef_construct: 100, full_scan_threshold: 10_000 } satisfies HnswSettings,
  indexingThresholdKb: 10_000,
};

const MAX_VECTOR_SIZE = 65_536;

/** Validates a create request against what this engine supports and resolves it to a stored config. */
export function resolveCollectionConfig(body: z.infer<typeof createCollectionSchema>): CollectionConfig {
  if (body.sparse_vectors && Object.keys(body.sparse_vectors).length > 0) throw unsupported('sparse vectors');
  if (body.quantization_config !== undefined && body.quantization_config !== null)
    throw unsupported('quantization');
  const hnsw = mergeHnsw(qdrantDefaults.hnsw, body.hnsw_config);
  const named = body.vectors === undefined || !('size' in body.vectors && 'distance' in body.vectors);
  const entries: [string, z.infer<typeof vectorParamsSchema>][] =
    body.vectors === undefined
      ? []
      : named
        ? Object.entries(body.vectors as Record<string, z.infer<typeof vectorParamsSchema>>)
        : [['', body.vectors as z.infer<typeof vectorParamsSchema>]];
  const vectors: Record<string, VectorConfig> = {};
  for (const [name, params] of entries) {
    const label = name === '' ? 'vectors' : `vectors.${name}`;
    if (params.size < 1 || params.size > MAX_VECTOR_SIZE) {
      throw validationError('JSON body', [
        `${label}.size: value ${params.size} invalid, must be from 1 to 65536`,
      ]);
    }
    if (params.distance === 'Manhattan') throw unsupported('Manhattan distance');
    if (params.multivector_config) throw unsupported('multivectors');
    if (params.quantization_config) throw unsupported('quantization');
    if (params.datatype && params.datatype !== 'float32')
      throw unsupported(`vector datatype \`${params.datatype}\``);
    const override = stripNulls(params.hnsw_config);
    vectors[name] = {
      size: params.size,
      distance: params.distance,
      hnsw: mergeHnsw(hnsw, override),
      hnswOverride: override,
    };
  }
  return {
    named,
    vectors,
    hnsw,
    indexingThresholdKb: body.optimizers_config?.indexing_threshold ?? qdrantDefaults.indexingThresholdKb,
    onDiskPayload: body.on_disk_payload ?? true,
    metadata: body.metadata ?? undefined,
  };
}

/** Index parameters of one vector, as the vector index wants them. */
export function indexParamsOf(config: CollectionConfig, vector: VectorConfig): IndexParams {
  return {
    m: vector.hnsw.m,
    efConstruct: vector.hnsw.ef_construct,
    fullScanThresholdKb: vector.hnsw.full_scan_threshold,
    indexingThresholdKb: vector.hnsw.m === 0 ? 0 : config.indexingThresholdKb,
    payloadM: vector.hnsw.m === 0 ? (vector.hnsw.payload_m ?? 0) : 0,
  };
}

function mergeHnsw(
  base: HnswSettings,
  diff: z.infer<typeof hnswDiffSchema> | null | undefined,
): HnswSettings {
  const payloadM = diff?.payload_m ?? base.payload_m;
  return {
    m: diff?.m ?? base.m,
    ef_construct: diff?.ef_construct ?? base.ef_construct,
    full_scan_threshold: diff?.full_scan_threshold ?? base.full_scan_threshold,
    ...(payloadM === undefined ? {} : { payload_m: payloadM }),
  };
}

function stripNulls(
  diff: z.infer<typeof hnswDiffSchema> | null | undefined,
): Partial<HnswSettings> | undefined {
  if (!diff) return undefined;
  const kept: Partial<HnswSettings> = {};
  if (diff.m !== null && diff.m !== undefined) kept.m = diff.m;
  if (diff.ef_construct !== null && diff.ef_construct !== undefined) kept.ef_construct = diff.ef_construct;
  if (diff.full_scan_threshold !== null && diff.full_scan_threshold !== undefined) {
    kept.full_scan_threshold = diff.full_scan_threshold;
  }
  if (diff.payload_m !== null && diff.payload_m !== undefined) kept.payload_m = diff.payload_m;
  return kept;
}
