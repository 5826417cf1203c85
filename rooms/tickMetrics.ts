import { worldTickDuration, worldTickLag } from '../platform/metrics';

/**
 * Wraps a room's tick for the real simulation interval: records how late each tick started against `tickMs`
 * (`world_tick_lag_seconds`, the WorldTickFallingBehind alert reads its p95) and how long it took
 * (`world_tick_duration_seconds`). The manual ticker tests use is not measured: its ticks are not on a schedule.
 */
export function measuredTick(areaId: string, tickMs: number, step: () => void): (deltaMs: number) => void {
  const lag = worldTickLag.labels({ area: areaId });
  const duration = worldTickDuration.labels({ area: areaId });
  return (deltaMs) => {
    lag.observe(Math.max(0, deltaMs - tickMs) / 1000);
    const started = performance.now();
    step();
    duration.observe((performance.now() - started) / 1000);
  };
}
