import { looksBinary } from '../../../ai/chunking/validation';
import type { FieldError } from '../../../platform/errors';
import type { DecisionDocument } from '../../../models/Decision';
import { decisionError } from './errors';

/** The markdown a decision is searchable as (`decisions/<id>.md` in the `docs` index). */
export function decisionMarkdown(
  decision: Pick<
    DecisionDocument,
    'title' | 'category' | 'status' | 'version' | 'rationale' | 'context' | 'superseded_by'
  >,
): string {
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

/** The text of a new decision, as POST /brain/decisions and consolidation give it. */
export interface DecisionText {
  title: string;
  category: DecisionDocument['category'];
  rationale: string;
  context?: string | null;
}

const TEXT_FIELDS = ['title', 'rationale', 'context'] as const;
// Any C0 control but tab, newline, carriage return and form feed, DEL, or U+FFFD: what the corpus counts as binary.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/;

/**
 * The fields of `text` the brain's corpus would refuse as binary (`looksBinary`, the rule `/brain/ingest` applies:
 * a NUL anywhere, or over 2 % control characters), so a decision it could never publish is refused before it is
 * stored. The whole markdown is checked as the corpus will see it; when only the combination is binary, every field
 * holding a control character is named.
 */
export function binaryFields(text: DecisionText, pathPrefix = 'body'): FieldError[] {
  const present = TEXT_FIELDS.filter((field) => typeof text[field] === 'string');
  const document = decisionMarkdown({
    ...text,
    context: text.context ?? null,
    status: 'active',
    version: 1,
    superseded_by: null,
  });
  if (!looksBinary(document) && !present.some((field) => looksBinary(text[field]!))) return [];
  const binary = present.filter((field) => looksBinary(text[field]!));
  const named = binary.length > 0 ? binary : present.filter((field) => CONTROL.test(text[field]!));
  return named.map((field) => ({
    path: `${pathPrefix}.${field}`,
    message: 'binary content (a NUL or control characters) that the brain cannot index',
  }));
}

/** Throws 400 DECISION_TEXT_BINARY naming the fields, before anything is stored, when the text is unpublishable. */
export function assertPublishable(text: DecisionText, pathPrefix = 'body'): void {
  const errors = binaryFields(text, pathPrefix);
  if (errors.length === 0) return;
  throw decisionError('DECISION_TEXT_BINARY', `Binary content in ${errors.map((e) => e.path).join(', ')}`, {
    errors,
  });
}
