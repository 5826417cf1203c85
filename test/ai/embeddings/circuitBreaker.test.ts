import { CircuitBreaker, CircuitOpenError } from '../../../ai/embeddings/circuitBreaker';
import { ManualClock } from '../../../platform/clock';
import { circuitBreakerFailures, circuitBreakerState } from '../../../platform/metrics';
import { metricValue } from './metricValue';

let providerCount = 0;
const boom = () => Promise.reject(new Error('boom'));
const ok = () => Promise.resolve('ok');

function buildBreaker(clock = new ManualClock()) {
  const provider = `breaker-test-${++providerCount}`;
  return { breaker: new CircuitBreaker(provider, { clock }), clock, provider };
}

async function failTimes(breaker: CircuitBreaker, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await expect(breaker.execute(boom)).rejects.toThrow('boom');
}

describe('CircuitBreaker', () => {
  it('opens on the 5th consecutive failure and then rejects without calling', async () => {
    const { breaker, provider } = buildBreaker();
    await failTimes(breaker, 4);
    expect(breaker.state).toBe('CLOSED');

    await failTimes(breaker, 1);
    const operation = jest.fn(ok);

    expect(breaker.state).toBe('OPEN');
    await expect(breaker.execute(operation)).rejects.toThrow(new CircuitOpenError(provider));
    expect(operation).not.toHaveBeenCalled();
    expect(await metricValue(circuitBreakerState, { provider })).toBe(2);
    expect(await metricValue(circuitBreakerFailures, { provider })).toBe(5);
  });

  it('resets the consecutive count on a success while closed', async () => {
    const { breaker } = buildBreaker();
    await failTimes(breaker, 4);
    await breaker.execute(ok);
    await failTimes(breaker, 4);

    expect(breaker.state).toBe('CLOSED');
  });

  it('moves to HALF_OPEN once 60 s have passed', async () => {
    const { breaker, clock, provider } = buildBreaker();
    await failTimes(breaker, 5);

    clock.advance(59_999);
    expect(breaker.state).toBe('OPEN');
    clock.advance(1);
    expect(breaker.state).toBe('HALF_OPEN');
    expect(await metricValue(circuitBreakerState, { provider })).toBe(1);
  });

  it('closes after 3 successful trial calls', async () => {
    const { breaker, clock, provider } = buildBreaker();
    await failTimes(breaker, 5);
    clock.advance(60_000);

    await breaker.execute(ok);
    await breaker.execute(ok);
    expect(breaker.state).toBe('HALF_OPEN');
    await breaker.execute(ok);

    expect(breaker.state).toBe('CLOSED');
    expect(await metricValue(circuitBreakerState, { provider })).toBe(0);
  });

  it('admits only 3 concurrent trials in HALF_OPEN', async () => {
    const { breaker, clock, provider } = buildBreaker();
    await failTimes(breaker, 5);
    clock.advance(60_000);
    const releases: (() => void)[] = [];
    const pending = () => new Promise<string>((resolve) => releases.push(() => resolve('ok')));

    const trials = [breaker.execute(pending), breaker.execute(pending), breaker.execute(pending)];
    await expect(breaker.execute(ok)).rejects.toThrow(new CircuitOpenError(provider));
    releases.forEach((release) => release());
    await Promise.all(trials);

    expect(breaker.state).toBe('CLOSED');
  });

  it('re-opens on a failed trial and restarts the recovery timeout', async () => {
    const { breaker, clock } = buildBreaker();
    await failTimes(breaker, 5);
    clock.advance(60_000);
    await breaker.execute(ok);

    await failTimes(breaker, 1);
    expect(breaker.state).toBe('OPEN');
    clock.advance(59_000);
    expect(breaker.state).toBe('OPEN');
    clock.advance(1_000);
    expect(breaker.state).toBe('HALF_OPEN');
  });

  it('leaves the state alone for errors that are not failures', async () => {
    const breaker = new CircuitBreaker(`breaker-test-${++providerCount}`, { isFailure: () => false });

    await failTimes(breaker, 6);

    expect(breaker.state).toBe('CLOSED');
  });
});
