/** Minutes east of UTC of `timeZone` at instant `ms`. */
function offsetMinutes(ms: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, Number(part.value)]),
  );
  const local = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
}

/** The instant when the wall clock of `timeZone` shows (year, month, day, hour, minute). */
function zonedInstant(
  y: number,
  m: number,
  d: number,
  hour: number,
  minute: number,
  timeZone: string,
): number {
  const guess = Date.UTC(y, m, d, hour, minute);
  const first = guess - offsetMinutes(guess, timeZone) * 60_000;
  return guess - offsetMinutes(first, timeZone) * 60_000;
}

/**
 * The latest nightly slot at or before `now`: the last instant whose wall-clock time in `timeZone` was `at`
 * (`HH:MM`, e.g. BRAIN_CONSOLIDATION_AT 03:30). A run for that slot missing means it was missed (catch-up).
 */
export function lastSlot(now: number, at: string, timeZone: string): Date {
  const [hour, minute] = at.split(':').map(Number);
  const local = new Date(now + offsetMinutes(now, timeZone) * 60_000);
  for (let back = 0; back < 3; back++) {
    const slot = zonedInstant(
      local.getUTCFullYear(),
      local.getUTCMonth(),
      local.getUTCDate() - back,
      hour,
      minute,
      timeZone,
    );
    if (slot <= now) return new Date(slot);
  }
  throw new Error(`No ${at} slot in ${timeZone} in the last three days`);
}

/** The Agenda cron expression of a daily `HH:MM`. */
export function dailyCron(at: string): string {
  const [hour, minute] = at.split(':').map(Number);
  return `${minute} ${hour} * * *`;
}
