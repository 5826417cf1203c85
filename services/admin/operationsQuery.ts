import type { Model } from 'mongoose';
import type { AuditEventRecord } from '../../models/AuditEvent';
import type { UserRecord } from '../../models/User';
import type { Clock } from '../../platform/clock';
import { operationsQueryRefused } from './errors';
import { OPERATIONS_CATALOGUE, type CatalogueMetric } from './operationsCatalogue';

/** A question read into the catalogue's terms. */
export interface InterpretedQuery {
  metric: CatalogueMetric;
  aggregation: 'count' | 'sum' | 'top';
  window: { label: string; from: Date; to: Date };
  group: { field: string; label: string } | null;
}

/** What an operations question reads. */
export interface OperationsSources {
  events: Model<AuditEventRecord>;
  users: Model<UserRecord>;
  clock: Clock;
}

const CHANGES =
  /\b(delete|drop|remove|update|insert|modify|set|ban|kick|revoke|erase|truncate|reset|shut ?down|kill|restart|create|add|give|transfer \d+|grant (?:the |a |an )?(?:role|admin|operator|creator))\b/;
const TOP = /\b(which|who|whom|top|most|highest|biggest|largest|busiest)\b/;
const SUM = /\b(total|sum|how much|volume|amount|value)\b/;
const UNITS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };
const WORD_NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  six: 6,
  twelve: 12,
  'twenty-four': 24,
};

/**
 * Reads an operations question offline, by grammar and intent matching: a write verb is refused; the metric is the
 * catalogue entry with the longest phrase in the question; "which/who/top/most" ranks by a grouping field, "total/how
 * much" sums amounts, otherwise it counts; the window is "last hour", "last N minutes/hours/days", "today",
 * "yesterday", "this week" (default the last 24 hours). Anything without a catalogue metric is refused.
 */
export function interpretQuestion(question: string, now: number): InterpretedQuery {
  const text = question.toLowerCase().replace(/[’']/g, "'").replace(/\s+/g, ' ');
  const names = OPERATIONS_CATALOGUE.map((metric) => metric.name);
  if (CHANGES.test(text))
    throw operationsQueryRefused('Operations questions are read-only; this asks for a change', names);
  let best: { metric: CatalogueMetric; length: number } | undefined;
  for (const metric of OPERATIONS_CATALOGUE) {
    for (const phrase of metric.phrases) {
      if (text.includes(phrase) && (!best || phrase.length > best.length))
        best = { metric, length: phrase.length };
    }
  }
  if (!best)
    throw operationsQueryRefused(
      'The question names no metric of the catalogue: ' +
        OPERATIONS_CATALOGUE.map((m) => `${m.name} (${m.description})`).join('; '),
      names,
    );
  const metric = best.metric;
  const top = TOP.test(text) && metric.groups.length > 0;
  const aggregation = top ? 'top' : SUM.test(text) && metric.summable ? 'sum' : 'count';
  const group = top
    ? (metric.groups.find((g) => g.words?.test(text)) ?? metric.groups[metric.groups.length - 1])
    : null;
  return {
    metric,
    aggregation,
    window: windowOf(text, now),
    group: group ? { field: group.field, label: group.label } : null,
  };
}

function windowOf(text: string, now: number): InterpretedQuery['window'] {
  const at = (from: number, label: string, to = now) => ({ label, from: new Date(from), to: new Date(to) });
  const midnight = Math.floor(now / 86_400_000) * 86_400_000;
  if (/\btoday\b/.test(text)) return at(midnight, 'today (UTC)');
  if (/\byesterday\b/.test(text)) return at(midnight - 86_400_000, 'yesterday (UTC)', midnight - 1);
  if (/\bthis week\b/.test(text)) return at(now - UNITS.week, 'the last 7 days');
  const match =
    /\b(?:last|past|previous|in the last)\s+(\d+|a|an|one|two|three|six|twelve|twenty-four)?\s*(minute|hour|day|week)s?\b/.exec(
      text,
    );
  if (match) {
    const n = match[1] ? Number(match[1]) || WORD_NUMBERS[match[1]] || 1 : 1;
    const ms = Math.min(n * UNITS[match[2]], 90 * UNITS.day);
    return at(now - ms, `the last ${n === 1 ? '' : `${n} `}${match[2]}${n === 1 ? '' : 's'}`);
  }
  return at(now - UNITS.day, 'the last 24 hours');
}

/** The answer: the interpreted query (as text too), the figure or ranked rows, and a sentence. */
export interface OperationsAnswer {
  interpreted: InterpretedQuery;
  query: string;
  value: number | null;
  rows: Array<{ key: string; value: number }>;
  text: string;
}

/** Runs an interpreted query: one read-only count, sum or grouped ranking (top 10) over the catalogue's source. */
export async function answerQuestion(
  sources: OperationsSources,
  question: string,
): Promise<OperationsAnswer> {
  const interpreted = interpretQuestion(question, sources.clock.now());
  const { metric, aggregation, window, group } = interpreted;
  const range = { $gte: window.from, $lte: window.to };
  if (metric.source.collection === 'users') {
    const value = await sources.users.countDocuments({ createdAt: range });
    return answer(
      interpreted,
      `count users where createdAt in [${iso(window.from)}, ${iso(window.to)}]`,
      value,
      [],
    );
  }
  const match: Record<string, unknown> = { at: range };
  if (metric.source.kinds.length > 0) match.kind = { $in: metric.source.kinds };
  const where = `kind in [${metric.source.kinds.join(', ') || '*'}] and at in [${iso(window.from)}, ${iso(window.to)}]`;
  if (aggregation === 'count') {
    const value = await sources.events.countDocuments(match);
    return answer(interpreted, `count audit_events where ${where}`, value, []);
  }
  if (aggregation === 'sum') {
    const [row] = await sources.events.aggregate<{ value: number }>([
      { $match: match },
      { $group: { _id: null, value: { $sum: '$details.amount' } } },
    ]);
    return answer(interpreted, `sum details.amount of audit_events where ${where}`, row?.value ?? 0, []);
  }
  const field = (group as { field: string }).field;
  const measure = metric.summable ? { $sum: '$details.amount' } : { $sum: 1 };
  const rows = await sources.events.aggregate<{ _id: unknown; value: number }>([
    { $match: match },
    { $group: { _id: `$${field}`, value: measure } },
    { $sort: { value: -1, _id: 1 } },
    { $limit: 10 },
  ]);
  return answer(
    interpreted,
    `top 10 ${field} by ${metric.summable ? 'sum of details.amount' : 'count'} of audit_events where ${where}`,
    null,
    rows.map((row) => ({ key: String(row._id ?? '(none)'), value: row.value })),
  );
}

function answer(
  interpreted: InterpretedQuery,
  query: string,
  value: number | null,
  rows: Array<{ key: string; value: number }>,
): OperationsAnswer {
  const { metric, window, group } = interpreted;
  const text =
    value !== null
      ? `${value} ${interpreted.aggregation === 'sum' ? `in total across ${metric.description}` : metric.description} in ${window.label}.`
      : rows.length === 0
        ? `No ${metric.description} in ${window.label}.`
        : `Top ${group?.label ?? 'keys'} for ${metric.description} in ${window.label}: ${rows
            .slice(0, 3)
            .map((row) => `${row.key} (${row.value})`)
            .join(', ')}.`;
  return { interpreted, query, value, rows, text };
}

function iso(at: Date): string {
  return at.toISOString();
}
