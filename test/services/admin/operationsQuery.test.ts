import { interpretQuestion } from '../../../services/admin/operationsQuery';

const NOW = Date.UTC(2026, 10, 26, 9, 30, 0);

describe('interpretQuestion (offline grammar and intent matching over the fixed catalogue)', () => {
  it.each([
    ['how many sign-ins failed in the last hour?', 'failed_sign_ins', 'count', 3_600_000, null],
    ['Which users sold the most today?', 'sales', 'top', 9.5 * 3_600_000, 'details.seller'],
    ['who bought the most in the last 7 days', 'sales', 'top', 7 * 86_400_000, 'actor'],
    ['total value of transfers in the past 6 hours', 'transfers', 'sum', 6 * 3_600_000, null],
    ['how many logins', 'sign_ins', 'count', 86_400_000, null],
    ['which tools were called most this week', 'tool_calls', 'top', 7 * 86_400_000, 'target'],
    ['how many new users signed up yesterday', 'new_users', 'count', 86_400_000 - 1, null],
    ['failed logins from which ips in the last 30 minutes', 'failed_sign_ins', 'top', 1_800_000, 'ip'],
  ])('%s', (question, metric, aggregation, span, group) => {
    const read = interpretQuestion(question, NOW);
    expect(read.metric.name).toBe(metric);
    expect(read.aggregation).toBe(aggregation);
    expect(read.window.to.getTime() - read.window.from.getTime()).toBe(span);
    expect(read.group?.field ?? null).toBe(group);
  });

  it('refuses questions outside the catalogue and anything asking for a change', () => {
    expect(() => interpretQuestion('what is the weather in Lisbon?', NOW)).toThrow(
      expect.objectContaining({ status: 422, code: 'OPERATIONS_QUERY_REFUSED' }),
    );
    expect(() => interpretQuestion('delete the failed sign-ins of today', NOW)).toThrow(
      expect.objectContaining({
        code: 'OPERATIONS_QUERY_REFUSED',
        detail: 'Operations questions are read-only; this asks for a change',
      }),
    );
    expect(() => interpretQuestion('grant the admin role to everyone who logged in', NOW)).toThrow(
      expect.objectContaining({ code: 'OPERATIONS_QUERY_REFUSED' }),
    );
  });
});
