/** How the platform's social graph regards a player, as the world reads it (`SocialService.standing`). */
export interface PlayerStandingView {
  /** Mean trust (0-100) of the people with an edge toward the player; 50 with nobody. */
  reputation: number;
  /** The social graph's threat level: none, low, elevated, high or critical. */
  threat_level: string;
}

/** Reads a player's standing by their user id (their character is their `web` identity in the social graph). */
export type PlayerStandings = (userId: string) => Promise<PlayerStandingView>;

/** Threat levels at which every NPC meets the player warily at first. */
const WARY_THREATS = new Set(['elevated', 'high', 'critical']);

/**
 * The first impression a player's standing makes on NPCs they have not dealt with yet, -3..3, added to the NPC's
 * starting score (`relationScore`): one step per 10 points of reputation away from 50 (a player many trust, 80, is
 * met warmly by a neutral NPC: 0 + 3 = friendly), and -3 at an elevated threat or above (a neutral NPC is wary:
 * no quests, no wares).
 */
export function firstImpression(standing: PlayerStandingView): number {
  if (WARY_THREATS.has(standing.threat_level)) return -3;
  return Math.max(-3, Math.min(3, Math.round((standing.reputation - 50) / 10)));
}
