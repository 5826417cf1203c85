import { ConcatenatedEmbedder } from './concatenatedEmbedder';
import { HttpEmbeddingProvider } from './httpEmbeddingProvider';
import { LocalHashEmbedder } from './localHashEmbedder';
import { LocalSemanticEmbedder } from './localSemanticEmbedder';
import { OfflineEmbedderPool } from './offlineEmbedderPool';
import type { EmbeddingProvider } from './provider';
import { SentenceEncoder } from './sentenceEncoder';
import type { Config } from '../../platform/config';

type ProviderSlot = 'PRIMARY' | 'SECONDARY';

function cloudProvider(config: Config, slot: ProviderSlot): EmbeddingProvider[] {
  const url = config[`BRAIN_EMBED_${slot}_URL`];
  if (!url) return [];
  return [
    new HttpEmbeddingProvider({
      id: slot.toLowerCase(),
      url,
      model: config[`BRAIN_EMBED_${slot}_MODEL`],
      dimensions: config[`BRAIN_EMBED_${slot}_DIMENSIONS`],
      apiKey: config[`BRAIN_EMBED_${slot}_API_KEY`],
      timeoutMs: config.BRAIN_EMBED_TIMEOUT_MS,
    }),
  ];
}

/**
 * The embedding fallback chain's providers in order (SPEC.md 1): the primary and the secondary
 * OpenAI-compatible endpoints when their URLs are configured (ids `primary`, `secondary`), then the local
 * offline embedder (`local`), which is always present and always last: by default (`BRAIN_LOCAL_EMBEDDER=
 * semantic`) `local-sem-v1-384` (terms, trigrams and WordNet synsets), the earlier `local-hash-v1-384`, or
 * (`neural`) the sentence encoder `use-lite-v1-512` on BRAIN_ENCODER_THREADS worker threads.
 */
export function embeddingProvidersFrom(config: Config): EmbeddingProvider[] {
  return [
    ...cloudProvider(config, 'PRIMARY'),
    ...cloudProvider(config, 'SECONDARY'),
    localEmbedderFrom(config),
  ];
}

function localEmbedderFrom(config: Config): EmbeddingProvider {
  switch (config.BRAIN_LOCAL_EMBEDDER) {
    case 'hash':
      return new LocalHashEmbedder();
    case 'neural':
      return new SentenceEncoder({ threads: config.BRAIN_ENCODER_THREADS });
    case 'fused':
      return new ConcatenatedEmbedder([
        { provider: new LocalSemanticEmbedder(), weight: config.BRAIN_FUSED_SEMANTIC_WEIGHT },
        { provider: new SentenceEncoder({ threads: config.BRAIN_ENCODER_THREADS }), weight: 1 },
      ]);
    default:
      return new LocalSemanticEmbedder();
  }
}

/**
 * The brain's documents' chain: as `embeddingProvidersFrom`, with the offline embedder (semantic or hash) in
 * BRAIN_EMBEDDER_THREADS worker threads (an OfflineEmbedderPool; 0 keeps it on the main thread): the documents'
 * vectors, RAPTOR's nodes and summaries are batches, which must not run on the event loop. The caller closes it.
 */
export function documentEmbeddingProvidersFrom(config: Config): EmbeddingProvider[] {
  const providers = embeddingProvidersFrom(config);
  const local = providers[providers.length - 1];
  if (config.BRAIN_EMBEDDER_THREADS > 0 && config.BRAIN_LOCAL_EMBEDDER === 'fused') {
    const [semantic, neural] = (local as ConcatenatedEmbedder).parts;
    providers[providers.length - 1] = new ConcatenatedEmbedder([
      { ...semantic, provider: offlinePool(config, 'semantic', semantic.provider) },
      neural,
    ]);
  } else if (config.BRAIN_EMBEDDER_THREADS > 0 && config.BRAIN_LOCAL_EMBEDDER !== 'neural') {
    providers[providers.length - 1] = offlinePool(
      config,
      config.BRAIN_LOCAL_EMBEDDER === 'hash' ? 'hash' : 'semantic',
      local,
    );
  }
  return providers;
}

function offlinePool(config: Config, kind: 'hash' | 'semantic', local: EmbeddingProvider): EmbeddingProvider {
  return new OfflineEmbedderPool({
    kind,
    id: local.id,
    dimensions: local.dimensions,
    threads: config.BRAIN_EMBEDDER_THREADS,
  });
}

/** The sentence encoder a local embedder runs (itself, or a part of a concatenated space), to share its threads. */
export function sentenceEncoderOf(provider: EmbeddingProvider): SentenceEncoder | undefined {
  if (provider instanceof SentenceEncoder) return provider;
  if (provider instanceof ConcatenatedEmbedder)
    return provider.parts.map((p) => sentenceEncoderOf(p.provider)).find(Boolean);
  return undefined;
}
