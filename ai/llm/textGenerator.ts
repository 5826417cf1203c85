/** One chat message of an OpenAI-compatible conversation. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A passage of evidence, numbered as the answer cites it (`[n]`). */
export interface Passage {
  n: number;
  title: string;
  text: string;
}

/**
 * What a generator is asked: the chat messages an LLM reads, and the same task in structured form for the
 * offline extractive generator (`question` and `passages` for answers and summaries). `task` names it.
 */
export interface GenerationRequest {
  task: 'answer' | 'summary' | 'hypothesis';
  messages: ChatMessage[];
  question?: string;
  passages?: Passage[];
  /** Upper bound on the reply's length in tokens (default 512). */
  maxTokens?: number;
}

/** Something that writes text: an LLM endpoint or the offline extractive generator. */
export interface TextGenerator {
  /** Provider id for metrics and logs (`primary`, `secondary`, `extractive`). */
  id: string;
  model: string;
  generate(request: GenerationRequest, signal?: AbortSignal): Promise<string>;
}
