import type { IndexName } from '../../models/corpusRecords';

/**
 * A node of a RAPTOR tree. Level 0 is a leaf: one chunk (`id` = the chunk id, `documentId` set, `text` the
 * chunk's text). Level ≥ 1 is a summary of its children (`text` the summary). `vector` is the embedding of
 * `text` in the tree's space (what collapsed-tree search and the next level's clustering compare);
 * `centroid` is the normalised mean of the children's vectors (where a new child is filed), the vector
 * itself for a leaf.
 */
export interface RaptorNode {
  id: string;
  index: IndexName;
  level: number;
  parent: string | null;
  /** Child node ids (empty for a leaf). */
  children: Set<string>;
  /** Display title: the chunk's for a leaf, empty for a summary (its text starts with its children's titles). */
  title: string;
  text: string;
  vector: Float32Array;
  centroid: Float32Array;
  /** The chunk's document, for a leaf; null for a summary. */
  documentId: string | null;
}

/** What one tree update did, for the sink and the counters. */
export interface TreeUpdate {
  /** Summary nodes created or re-summarised (to store). */
  written: RaptorNode[];
  /** Summary node ids removed (to delete). */
  removed: string[];
  /** True when the levels above the leaves were rebuilt from scratch (the sink replaces the index's rows). */
  rebuilt: boolean;
}
