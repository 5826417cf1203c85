import type { Ingestor } from '../../../ai/corpus/ingestor';
import type { DecisionPublisher } from './decisionPublication';
import { decisionMarkdown } from './decisionText';

/**
 * Publishes decisions into the brain's corpus through its ingestor, so /brain/search finds them. A failure throws:
 * the decision log records it on the decision and the retry job tries again (`decisionPublication.ts`).
 */
export function decisionPublisherFor(ingestor: Pick<Ingestor, 'ingest'>): DecisionPublisher {
  return {
    publish: async (decision) => {
      await ingestor.ingest(
        [
          {
            source: `decisions/${decision._id}.md`,
            index: 'docs',
            title: decision.title,
            text: decisionMarkdown(decision),
            tags: ['decision', decision.category],
          },
        ],
        // Refusals name the document as the brain's ingest route does (what the decision log records, unchanged).
        'body.documents',
      );
    },
  };
}
