import { HttpEmbeddingProvider } from '../../ai/embeddings/httpEmbeddingProvider';
import { LocalHashEmbedder } from '../../ai/embeddings/localHashEmbedder';
import { LocalSemanticEmbedder } from '../../ai/embeddings/localSemanticEmbedder';
import type { EmbeddingProvider } from '../../ai/embeddings/provider';
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
 * semantic`) `local-sem-v1-384` (terms, trigrams and WordNet synsets), or the earlier `local-hash-v1-384`.
 */
export function embeddingProvidersFrom(config: Config): EmbeddingProvider[] {
  return [
    ...cloudProvider(config, 'PRIMARY'),
    ...cloudProvider(config, 'SECONDARY'),
    config.BRAIN_LOCAL_EMBEDDER === 'hash' ? new LocalHashEmbedder() : new LocalSemanticEmbedder(),
  ];
}
