import type { CompanionPresence } from '../content/schemas';
import type { CompanionTemplate, World } from '../content/world';
import type { PlayerState } from '../state/PlayerState';
import { type SimContext, normalise, requirePlayer } from './context';
import { CompanionNotPurchasableError, reject } from './errors';

/**
 * Companions: bonded to one player (never bought: `is_purchasable` is false and every trade path calls
 * `assertNotCompanion`), bond level 1-5 rising with shared events, and a presence setting deciding when the
 * companion speaks or acts.
 */

/** Bond points needed for bond levels 1..5. */
export const BOND_THRESHOLDS = [0, 5, 12, 22, 35] as const;

/** Bond points per shared event. */
export const BOND_POINTS = { victory: 1, rest: 1, questDone: 3 } as const;

/** When a companion might speak or act. `greet`: on talk/arrival; `combat`: each round; `asked`: on command. */
export type CompanionTrigger = 'greet' | 'combat' | 'lowHealth' | 'questDone' | 'asked';

export interface CompanionReaction {
  speak: boolean;
  act: boolean;
}

const IMPORTANT: ReadonlySet<CompanionTrigger> = new Set(['lowHealth', 'questDone']);

/**
 * The presence rules. Always: speaks on everything, fights each round. On Demand: speaks and acts only when
 * asked. Subtle: speaks on important moments or when asked, fights without comment. Progressive: grows with
 * the bond (asked only at 1; important moments from 2; fights from 3; comments on fights from 4; like Always
 * at 5). Silent: never speaks and never acts.
 */
export function companionReaction(
  presence: CompanionPresence,
  bond: number,
  trigger: CompanionTrigger,
): CompanionReaction {
  const isCombat = trigger === 'combat';
  switch (presence) {
    case 'Always':
      return { speak: true, act: isCombat || trigger === 'asked' };
    case 'On Demand':
      return { speak: trigger === 'asked', act: trigger === 'asked' };
    case 'Subtle':
      return { speak: IMPORTANT.has(trigger) || trigger === 'asked', act: isCombat };
    case 'Progressive': {
      if (bond >= 5) return { speak: true, act: isCombat || trigger === 'asked' };
      const speak = trigger === 'asked' || (bond >= 2 && IMPORTANT.has(trigger)) || (bond >= 4 && isCombat);
      return { speak, act: isCombat && bond >= 3 };
    }
    case 'Silent':
      return { speak: false, act: false };
  }
}

/** Bond level for accumulated points. */
export function bondLevelFor(points: number): number {
  let level = 1;
  BOND_THRESHOLDS.forEach((threshold, i) => {
    if (points >= threshold) level = i + 1;
  });
  return level;
}

/** Bonds a companion to a player who has none. */
export function bondCompanion(ctx: SimContext, player: PlayerState, template: CompanionTemplate): void {
  if (player.companion.ref) throw reject('HAS_COMPANION', `${player.companion.name} would not share you.`);
  player.companion.ref = template.ref;
  player.companion.name = template.name;
  player.companion.bond = 1;
  player.companion.bondPoints = 0;
  player.companion.presence = template.presence;
  ctx.emit({
    type: 'companion.bonded',
    companion: template.name,
    species: template.species,
    to: { userId: player.userId },
  });
  shareMoment(ctx, player, 'bonded', 'met and bonded');
}

/** A kind of moment a player shares with their companion (what its memory keeps). */
export type CompanionMoment = 'bonded' | 'fight' | 'rest' | 'quest' | 'found';

/**
 * A moment shared with the companion: adds its bond points (announcing a new level) and publishes
 * `companion.moment` for the companion's memory (`text` says what happened, from the companion's side).
 */
export function shareMoment(
  ctx: SimContext,
  player: PlayerState,
  moment: CompanionMoment,
  text: string,
  points = 0,
): void {
  if (!player.companion.ref) return;
  const bondBefore = player.companion.bond;
  if (points > 0) addBond(ctx, player, points);
  ctx.publish({
    type: 'companion.moment',
    areaId: ctx.area.id,
    userId: player.userId,
    companion: player.companion.ref,
    moment,
    text,
    roomRef: player.roomRef,
    bondBefore,
    bond: player.companion.bond,
  });
}

/** Adds bond points from a shared event; announces a new bond level. */
export function addBond(ctx: SimContext, player: PlayerState, points: number): void {
  if (!player.companion.ref) return;
  player.companion.bondPoints += points;
  const level = bondLevelFor(player.companion.bondPoints);
  if (level > player.companion.bond) {
    player.companion.bond = level;
    ctx.emit({
      type: 'companion.bond',
      companion: player.companion.name,
      bond: level,
      to: { userId: player.userId },
    });
  }
}

/** The companion says its line for `trigger` if its presence allows; returns whether it spoke. */
export function companionSpeaks(
  ctx: SimContext,
  player: PlayerState,
  trigger: Exclude<CompanionTrigger, 'combat' | 'asked'> | 'asked',
  target = '',
): boolean {
  const template = player.companion.ref ? ctx.world.companions.get(player.companion.ref) : undefined;
  if (!template) return false;
  if (
    !companionReaction(player.companion.presence as CompanionPresence, player.companion.bond, trigger).speak
  )
    return false;
  const line = trigger === 'asked' ? template.lines.greet : template.lines[trigger];
  ctx.emit({
    type: 'companion.spoke',
    companion: template.name,
    text: line.replace('{target}', target),
    to: { userId: player.userId },
  });
  return true;
}

/** Damage the companion adds to a combat round (0 when its presence keeps it out). */
export function companionStrike(ctx: SimContext, player: PlayerState, targetName: string): number {
  const template = player.companion.ref ? ctx.world.companions.get(player.companion.ref) : undefined;
  if (!template) return 0;
  const reaction = companionReaction(
    player.companion.presence as CompanionPresence,
    player.companion.bond,
    'combat',
  );
  if (!reaction.act) return 0;
  const damage = template.attack + player.companion.bond - 1;
  if (reaction.speak) {
    ctx.emit({
      type: 'companion.spoke',
      companion: template.name,
      text: template.lines.combat.replace('{target}', targetName),
      to: { userId: player.userId },
    });
  }
  ctx.emit({
    type: 'companion.acted',
    companion: template.name,
    target: targetName,
    damage,
    to: { userId: player.userId },
  });
  return damage;
}

/** The companion operations a player can ask for. */
export type CompanionOp = 'talk' | 'presence' | 'swap' | 'decline' | 'ask';

/** The fields of a companion command besides its op. */
export interface CompanionCommand {
  presence?: CompanionPresence;
  /** `ask`: the question. */
  question?: string;
  /** `ask`: the name the player addressed ("ask pip ..."). */
  name?: string;
}

/**
 * `companion talk` / `companion presence` / `companion swap` (part with the bonded companion and take the
 * one a quest offered) / `companion decline` (refuse that offer) / `companion ask <question>` (`ask pip ...`).
 */
export function commandCompanion(
  ctx: SimContext,
  userId: string,
  op: CompanionOp,
  command: CompanionCommand = {},
): void {
  const { presence } = command;
  const player = requirePlayer(ctx, userId);
  if (op === 'swap' || op === 'decline') return answerOffer(ctx, player, op);
  if (op === 'ask' && command.name && !addresses(player, command.name)) {
    throw reject('NO_SUCH_NPC', `There is nobody called "${command.name}" here.`);
  }
  if (!player.companion.ref) throw reject('NO_COMPANION', 'You have no companion.');
  if (op === 'ask') return askCompanion(ctx, player, command.question ?? '');
  if (op === 'presence') {
    if (!presence)
      throw reject(
        'PRESENCE_REQUIRED',
        'Say which presence: Always, On Demand, Subtle, Progressive or Silent.',
      );
    player.companion.presence = presence;
    ctx.emit({ type: 'companion.presence', companion: player.companion.name, presence, to: { userId } });
    return;
  }
  if (!companionSpeaks(ctx, player, 'asked')) {
    ctx.emit({ type: 'companion.spoke', companion: player.companion.name, text: '...', to: { userId } });
  }
}

/** Whether `name` addresses the player's companion (its name, or the name's first word: "pip"). */
function addresses(player: PlayerState, name: string): boolean {
  const own = normalise(player.companion.name);
  const q = normalise(name);
  return !!own && (own === q || own.split(' ')[0] === q);
}

/**
 * `ask <companion> <question>`: a companion whose presence lets it speak when asked consults its memory (the
 * answer follows the action); a Silent one only looks at you.
 */
function askCompanion(ctx: SimContext, player: PlayerState, question: string): void {
  if (!question) throw reject('QUESTION_REQUIRED', `Ask ${player.companion.name} something.`);
  const reaction = companionReaction(
    player.companion.presence as CompanionPresence,
    player.companion.bond,
    'asked',
  );
  if (!reaction.speak) {
    ctx.emit({
      type: 'companion.spoke',
      companion: player.companion.name,
      text: '...',
      to: { userId: player.userId },
    });
    return;
  }
  ctx.consult?.({ kind: 'companion.ask', userId: player.userId, companion: player.companion.ref, question });
}

function answerOffer(ctx: SimContext, player: PlayerState, op: 'swap' | 'decline'): void {
  const journal = ctx.journal(player.userId);
  const offered = journal.pendingCompanion ? ctx.world.companions.get(journal.pendingCompanion) : undefined;
  if (!offered) throw reject('NO_COMPANION_OFFER', 'No companion is waiting for your answer.');
  journal.pendingCompanion = undefined;
  const to = { userId: player.userId };
  if (op === 'decline') {
    ctx.emit({ type: 'companion.declined', companion: offered.name, to });
    return;
  }
  if (player.companion.ref) {
    ctx.emit({ type: 'companion.parted', companion: player.companion.name, to });
    player.companion.ref = '';
  }
  bondCompanion(ctx, player, offered);
}

/**
 * Throws `CompanionNotPurchasableError` when `query` names a companion (a template ref, id or name, or the
 * player's own companion). Every buy, sell, give and trade path calls this first.
 */
export function assertNotCompanion(world: World, query: string, player?: PlayerState): void {
  const q = normalise(query);
  for (const template of world.companions.values()) {
    if ([template.ref, template.id, template.name].some((key) => normalise(key) === q)) {
      throw new CompanionNotPurchasableError(template.name);
    }
  }
  if (player?.companion.ref && normalise(player.companion.name) === q) {
    throw new CompanionNotPurchasableError(player.companion.name);
  }
}

/**
 * For marketplace and economy code: throws `CompanionNotPurchasableError` if `ref` is a companion. Only
 * items can be listed, bought or sold.
 */
export function assertPurchasable(world: World, ref: string): void {
  const companion = world.companions.get(ref);
  if (companion) throw new CompanionNotPurchasableError(companion.name);
}
