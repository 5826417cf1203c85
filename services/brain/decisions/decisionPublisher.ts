import type { Logger } from 'pino';
import type { Ingestor } from '../../../ai/corpus/ingestor';
import type { DecisionDocument } from '../../../models/Decision';
import type { DecisionPublisher } from './decisionLog';

/** The markdown a decision is searchable as (`decisions/<id>.md` in the `docs` index). */
export function decisionMarkdown(decision: DecisionDocument): string {
  const lines = [
    `# Decision: ${decision.title}`,
    '',
    `Category: ${decision.category}. Status: ${decision.status} (version ${decision.version}).`,
    '',
    '## Rationale',
    '',
    decision.rationale,
  ];
  if (decision.context) lines.push('', '## Context', '', decision.context);
  if (decision.superseded_by) lines.push('', `Superseded by decision ${decision.superseded_by}.`);
  return lines.join('\n');
}

/**
 * Publishes decisions into the brain's corpus through its ingestor, so /brain/search finds them. A failed publish
 * is logged and the decision stands (the next change of it publishes again).
 */
export function decisionPublisherFor(ingestor: Pick<Ingestor, 'ingest'>, logger: Logger): DecisionPublisher {
  return {
    publish: async (decision) => {
      try {
        await ingestor.ingest([
          {
            source: `decisions/${decision._id}.md`,
            index: 'docs',
            title: decision.title,
            text: decisionMarkdown(decision),
            tags: ['decision', decision.category],
          },
        ]);
      } catch (error) {
        logger.error({ err: error, decision: decision._id }, 'decision could not be published to the corpus');
      }
    },
  };
}
