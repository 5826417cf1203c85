import type { ItemTemplate, NpcTemplate } from '../content/world';
import type { PlayerState } from '../state/PlayerState';
import { type SimContext, matchByName, requireAlive, requirePlayer } from './context';
import { assertNotCompanion } from './companions';
import { dispositionOf, findNpc, npcsIn } from './disposition';
import { reject } from './errors';
import { addItem, countOf, removeItem } from './inventory';
import { credit, debit } from './purse';
import { improve, tradePrice } from './skills';

/**
 * NPC merchants. They sell their `sells` wares for coins (with the Trade path's discount) from a stock that
 * refills one unit every `restock` AI steps, and buy the item kinds or refs in `buys` at the item's
 * `value`. Wary NPCs do not trade; companions are never bought or sold. Every coin moves through `purse`.
 */

const stockKey = (npc: NpcTemplate, item: string) => `${npc.ref}>${item}`;

/** Units of `item` the NPC has on hand (Infinity for unlimited wares). */
export function stockOf(ctx: SimContext, npc: NpcTemplate, item: string): number {
  const sale = npc.sells.find((s) => s.item === item);
  if (!sale) return 0;
  if (sale.stock === undefined) return Infinity;
  return ctx.stock.get(stockKey(npc, item))?.left ?? sale.stock;
}

/** One AI step of restocking for every merchant of this area. */
export function restock(ctx: SimContext): void {
  for (const [key, entry] of ctx.stock) {
    if (entry.left >= entry.max) {
      ctx.stock.delete(key);
      continue;
    }
    entry.waited += 1;
    if (entry.waited < entry.every) continue;
    entry.waited = 0;
    entry.left += 1;
  }
}

/** `buy`: one unit of an item an NPC in the room sells. */
export function buy(ctx: SimContext, userId: string, query: string, from?: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  assertNotCompanion(ctx.world, query, player);
  const sellers = from ? [findNpc(ctx, player.roomRef, from)] : npcsIn(ctx, player.roomRef);
  const offers = sellers.flatMap((npc) =>
    npc.sells.map((sale) => ({ npc, sale, item: ctx.world.items.get(sale.item)! })),
  );
  const offer = matchByName(offers, query, (o) => [o.item.ref, o.item.id, o.item.name]);
  if (!offer) throw reject('NOT_FOR_SALE', `Nobody here sells "${query}".`);
  requireWilling(ctx, userId, offer.npc);
  const left = stockOf(ctx, offer.npc, offer.item.ref);
  if (left < 1)
    throw reject('OUT_OF_STOCK', `${offer.npc.name} has no ${offer.item.name} left; come back later.`);
  const price = tradePrice(player, offer.sale.price);
  debit(
    ctx,
    player,
    price,
    `buy:${offer.item.ref}`,
    `${offer.item.name} costs ${price} coins; you have ${player.soft}.`,
  );
  if (offer.sale.stock !== undefined) {
    const key = stockKey(offer.npc, offer.item.ref);
    const entry = ctx.stock.get(key) ?? { left, max: offer.sale.stock, every: offer.sale.restock, waited: 0 };
    entry.left -= 1;
    ctx.stock.set(key, entry);
  }
  addItem(player, offer.item.ref, 1);
  traded(ctx, player, offer.npc, offer.item, 1, price, 'buy');
}

/** `sell`: sells carried items (one unless `qty`) to an NPC in the room who buys that kind of thing. */
export function sell(ctx: SimContext, userId: string, query: string, qty = 1, to?: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  assertNotCompanion(ctx.world, query, player);
  const items = [...player.inventory.keys()].map((ref) => ctx.world.items.get(ref)!).filter(Boolean);
  const item = matchByName(items, query, (i) => [i.ref, i.id, i.name]);
  if (!item) throw reject('NOT_CARRIED', `You are not carrying "${query}".`);
  if (countOf(player, item.ref) < qty)
    throw reject('NOT_ENOUGH', `You only have ${countOf(player, item.ref)} ${item.name}.`);
  const buyers = (to ? [findNpc(ctx, player.roomRef, to)] : npcsIn(ctx, player.roomRef)).filter((npc) =>
    npc.buys.some((b) => b === item.kind || b === item.ref),
  );
  const npc = buyers[0];
  if (!npc || item.value < 1) throw reject('NPC_WONT_BUY', `Nobody here will buy ${item.name}.`);
  requireWilling(ctx, userId, npc);
  removeItem(player, item.ref, qty);
  credit(ctx, player, item.value * qty, `sell:${item.ref}`);
  traded(ctx, player, npc, item, qty, item.value * qty, 'sell');
}

function requireWilling(ctx: SimContext, userId: string, npc: NpcTemplate): void {
  if (dispositionOf(ctx, userId, npc) === 'wary')
    throw reject('NPC_REFUSES', `${npc.name} will not trade with you.`);
}

function traded(
  ctx: SimContext,
  player: PlayerState,
  npc: NpcTemplate,
  item: ItemTemplate,
  qty: number,
  soft: number,
  side: 'buy' | 'sell',
): void {
  improve(ctx, player, 'trading');
  ctx.emit({
    type: side === 'buy' ? 'item.bought' : 'item.sold',
    actor: { name: player.name, userId: player.userId },
    item: item.name,
    qty,
    price: soft,
    npc: { name: npc.name },
    to: { userId: player.userId },
  });
  ctx.publish({
    type: 'trade.completed',
    areaId: ctx.area.id,
    userId: player.userId,
    npc: npc.ref,
    item: item.ref,
    qty,
    soft,
    side,
  });
}
