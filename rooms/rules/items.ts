import type { ItemTemplate } from '../content/world';
import { FloorItemState } from '../state/AreaState';
import type { PlayerState } from '../state/PlayerState';
import { type SimContext, matchByName, playersIn, requireAlive, requirePlayer } from './context';
import { assertNotCompanion, shareMoment } from './companions';
import { adjustDisposition, findNpc, npcsIn } from './disposition';
import { reject } from './errors';
import { addItem, countOf, removeItem } from './inventory';
import { improve } from './skills';

/** Item actions: take, drop, give, equip, use, inventory and buying from an NPC. */

function carried(ctx: SimContext, player: PlayerState, query: string): ItemTemplate {
  const refs: string[] = [];
  player.inventory.forEach((_qty, ref) => refs.push(ref));
  const item = matchByName(refs.map((ref) => ctx.world.items.get(ref)!).filter(Boolean), query, (i) => [
    i.ref,
    i.id,
    i.name,
  ]);
  if (!item) throw reject('NOT_CARRIED', `You are not carrying "${query}".`);
  return item;
}

function quantity(requested: number | undefined, available: number, name: string): number {
  const qty = requested ?? available;
  if (qty > available) throw reject('NOT_ENOUGH', `You only have ${available} ${name}.`);
  return qty;
}

/** Puts `qty` of `ref` on the floor of `roomRef`, merging with a stack already there. */
export function dropOnFloor(ctx: SimContext, roomRef: string, ref: string, qty: number): void {
  for (const item of ctx.state.items.values()) {
    if (item.roomRef === roomRef && item.ref === ref) {
      item.qty += qty;
      return;
    }
  }
  const id = ctx.nextId('i');
  const name = ctx.world.items.get(ref)!.name;
  ctx.state.items.set(id, new FloorItemState({ id, ref, name, roomRef, qty }));
}

/** `take`: picks up a floor item (all of the stack unless `qty`). */
export function take(ctx: SimContext, userId: string, query: string, qty?: number): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  const here = [...ctx.state.items.values()].filter((item) => item.roomRef === player.roomRef);
  const item = matchByName(here, query, (i) => [i.id, i.ref, i.name]);
  if (!item) throw reject('NO_SUCH_ITEM', `There is no "${query}" here.`);
  const amount = qty ?? item.qty;
  if (amount > item.qty) throw reject('NOT_ENOUGH', `There are only ${item.qty} ${item.name} here.`);
  if (amount === item.qty) ctx.state.items.delete(item.id);
  else item.qty -= amount;
  addItem(player, item.ref, amount);
  if (ctx.world.items.get(item.ref)?.kind === 'material') improve(ctx, player, 'gathering');
  ctx.emit({
    type: 'item.taken',
    actor: { name: player.name, userId },
    item: item.name,
    qty: amount,
    to: { roomRef: player.roomRef },
  });
  const found =
    amount > 1 ? `${amount} ${item.name}` : `${/^[aeiou]/i.test(item.name) ? 'an' : 'a'} ${item.name}`;
  shareMoment(ctx, player, 'found', `found ${found}`);
}

/** `drop`: puts carried items on the floor. */
export function drop(ctx: SimContext, userId: string, query: string, qty?: number): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  const item = carried(ctx, player, query);
  const amount = quantity(qty, countOf(player, item.ref), item.name);
  removeItem(player, item.ref, amount);
  dropOnFloor(ctx, player.roomRef, item.ref, amount);
  ctx.emit({
    type: 'item.dropped',
    actor: { name: player.name, userId },
    item: item.name,
    qty: amount,
    to: { roomRef: player.roomRef },
  });
}

/**
 * `give`: hands items (one unless `qty` says more) to another player or an NPC in the room. NPCs warm to
 * gifts (more for ones they like). Companions cannot be given: that is rejected with
 * `COMPANION_NOT_PURCHASABLE`.
 */
export function give(ctx: SimContext, userId: string, query: string, to: string, qty = 1): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  assertNotCompanion(ctx.world, query, player);
  const item = carried(ctx, player, query);
  const amount = quantity(qty, countOf(player, item.ref), item.name);
  const others = playersIn(ctx, player.roomRef).filter((p) => p.userId !== userId);
  const recipient = matchByName(others, to, (p) => [p.userId, p.name]);
  if (recipient) {
    removeItem(player, item.ref, amount);
    addItem(recipient, item.ref, amount);
    ctx.emit({
      type: 'item.given',
      actor: { name: player.name, userId },
      item: item.name,
      qty: amount,
      recipient: { name: recipient.name, userId: recipient.userId },
      to: { roomRef: player.roomRef },
    });
    return;
  }
  const npc = npcsIn(ctx, player.roomRef).length > 0 ? findNpc(ctx, player.roomRef, to) : undefined;
  if (!npc) throw reject('NO_RECIPIENT', `There is nobody called "${to}" here.`);
  removeItem(player, item.ref, amount);
  ctx.emit({
    type: 'item.given',
    actor: { name: player.name, userId },
    item: item.name,
    qty: amount,
    recipient: { name: npc.name },
    to: { roomRef: player.roomRef },
  });
  adjustDisposition(
    ctx,
    userId,
    npc,
    npc.likes.includes(item.ref) ? 'likedGift' : 'gift',
    undefined,
    item.ref,
  );
  ctx.publish({ type: 'item.given', areaId: ctx.area.id, userId, to: npc.ref, item: item.ref, qty: amount });
}

/** `equip`: wields or wears a carried weapon or armor in its slot. */
export function equip(ctx: SimContext, userId: string, query: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  const item = carried(ctx, player, query);
  if (!item.slot) throw reject('NOT_EQUIPPABLE', `You cannot equip ${item.name}.`);
  player.equipment.set(item.slot, item.ref);
  ctx.emit({
    type: 'item.equipped',
    actor: { name: player.name, userId },
    item: item.name,
    slot: item.slot,
    to: { roomRef: player.roomRef },
  });
}

/** `use`: consumes a healing item. */
export function use(ctx: SimContext, userId: string, query: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  const item = carried(ctx, player, query);
  if (item.kind !== 'consumable') throw reject('NOT_USABLE', `You cannot use ${item.name}.`);
  if (player.health >= player.maxHealth)
    throw reject('FULL_HEALTH', `You are already at full health; you keep the ${item.name}.`);
  removeItem(player, item.ref, 1);
  const healed = Math.min(item.heal, player.maxHealth - player.health);
  player.health += healed;
  ctx.emit({
    type: 'item.used',
    actor: { name: player.name, userId },
    item: item.name,
    healed,
    to: { userId },
  });
}

/** `inventory`: what the player carries, wears and owns. */
export function inventory(ctx: SimContext, userId: string): void {
  const player = requirePlayer(ctx, userId);
  const items: Array<{ ref: string; name: string; qty: number }> = [];
  player.inventory.forEach((qty, ref) =>
    items.push({ ref, name: ctx.world.items.get(ref)?.name ?? ref, qty }),
  );
  items.sort((a, b) => a.name.localeCompare(b.name));
  const equipment: Record<string, string> = {};
  player.equipment.forEach((ref, slot) => {
    equipment[slot] = ctx.world.items.get(ref)?.name ?? ref;
  });
  ctx.emit({
    type: 'inventory',
    items,
    equipment,
    soft: player.soft,
    hard: player.hard,
    health: player.health,
    maxHealth: player.maxHealth,
    to: { userId },
  });
}
