import type { Catalog } from '../catalog';
import type { Collection } from '../collection';
import { createCollectionSchema, resolveCollectionConfig, type VectorConfig } from '../collectionConfig';
import { validationError } from '../errors';
import { parseWith } from './parseBody';

const FORBIDDEN_NAME_CHARS = '<>:"/\\|?*';

function hasForbiddenChar(name: string): boolean {
  return [...name].some((char) => char.charCodeAt(0) < 0x20 || FORBIDDEN_NAME_CHARS.includes(char));
}

/** Qdrant's collection name rules: 1-255 characters, none that are unsafe in a file name. */
export function validateCollectionName(name: string): void {
  if (name.length < 1 || name.length > 255) {
    throw validationError('path parameters', [
      `name: value ${name} invalid, must be from 1 to 255 characters`,
    ]);
  }
  if (hasForbiddenChar(name) || name === '.' || name === '..') {
    throw validationError('path parameters', [
      `name: collection name \`${name}\` contains forbidden characters`,
    ]);
  }
}

/** `PUT /collections/{name}`. */
export function createCollection(catalog: Catalog, name: string, body: unknown): true {
  validateCollectionName(name);
  const config = resolveCollectionConfig(parseWith(createCollectionSchema, body ?? {}));
  catalog.create(name, config);
  return true;
}

/** `GET /collections/{name}`: Qdrant's `CollectionInfo`, with the settings that apply here. */
export function presentCollectionInfo(collection: Collection) {
  const { config } = collection;
  const indexes = [...collection.vectors.values()];
  const indexing = indexes.some((index) => index.needsIndexing);
  const vectors = config.named
    ? Object.fromEntries(
        Object.entries(config.vectors).map(([name, vector]) => [name, presentVector(vector)]),
      )
    : presentVector(config.vectors['']);
  return {
    status: indexing ? 'yellow' : 'green',
    optimizer_status: 'ok',
    indexed_vectors_count: indexes.reduce((sum, index) => sum + index.indexedCount, 0),
    points_count: collection.size,
    segments_count: 1,
    config: {
      params: {
        vectors,
        shard_number: 1,
        replication_factor: 1,
        write_consistency_factor: 1,
        on_disk_payload: config.onDiskPayload,
      },
      hnsw_config: { ...config.hnsw, max_indexing_threads: 0, on_disk: false },
      optimizer_config: {
        deleted_threshold: 0.2,
        vacuum_min_vector_number: 1000,
        default_segment_number: 0,
        max_segment_size: null,
        memmap_threshold: null,
        indexing_threshold: config.indexingThresholdKb,
        flush_interval_sec: 5,
        max_optimization_threads: null,
      },
      wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
      quantization_config: null,
      ...(config.metadata ? { metadata: config.metadata } : {}),
    },
    payload_schema: Object.fromEntries(
      [...collection.payloadIndexes].map(([field, spec]) => [
        field,
        {
          data_type: spec.type,
          ...(spec.params ? { params: spec.params } : {}),
          points: collection.countWithField(field),
        },
      ]),
    ),
  };
}

function presentVector(vector: VectorConfig) {
  return {
    size: vector.size,
    distance: vector.distance,
    ...(vector.hnswOverride && Object.keys(vector.hnswOverride).length > 0
      ? { hnsw_config: vector.hnswOverride }
      : {}),
  };
}
