/**
 * Which players have a channel open (plain WebSocket tabs, telnet terminals): a character leaves the world only
 * when the last of its channels closes, whichever kind it was, so a player in a browser tab and a terminal at
 * once keeps playing in the other when one closes (as with two tabs).
 */
export class ChannelHolds {
  private readonly counts = new Map<string, number>();

  /** A channel of `userId` opened. */
  hold(userId: string): void {
    this.counts.set(userId, (this.counts.get(userId) ?? 0) + 1);
  }

  /** A channel of `userId` closed; true when it was the last one (the player may leave the world). */
  drop(userId: string): boolean {
    const left = (this.counts.get(userId) ?? 1) - 1;
    if (left > 0) {
      this.counts.set(userId, left);
      return false;
    }
    this.counts.delete(userId);
    return true;
  }

  /** Players with at least one channel open. */
  players(): string[] {
    return [...this.counts.keys()];
  }
}
