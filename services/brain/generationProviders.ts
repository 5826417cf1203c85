import { HttpChatProvider } from '../../ai/llm/httpChatProvider';
import type { TextGenerator } from '../../ai/llm/textGenerator';
import type { Config } from '../../platform/config';

type ProviderSlot = 'PRIMARY' | 'SECONDARY';

function chatProvider(config: Config, slot: ProviderSlot): TextGenerator[] {
  const url = config[`BRAIN_LLM_${slot}_URL`];
  if (!url) return [];
  return [
    new HttpChatProvider({
      id: slot.toLowerCase(),
      url,
      model: config[`BRAIN_LLM_${slot}_MODEL`],
      apiKey: config[`BRAIN_LLM_${slot}_API_KEY`],
      timeoutMs: config.BRAIN_LLM_TIMEOUT_MS,
    }),
  ];
}

/**
 * The LLM providers of the generation chain in order: the primary and the secondary OpenAI-compatible chat
 * endpoints when their URLs are configured (ids `primary`, `secondary`). The offline extractive generator,
 * always last, is added by the chain itself.
 */
export function generationProvidersFrom(config: Config): TextGenerator[] {
  return [...chatProvider(config, 'PRIMARY'), ...chatProvider(config, 'SECONDARY')];
}
