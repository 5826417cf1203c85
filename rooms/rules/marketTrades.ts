import type { MarketEventBody, MarketListingLine } from '../text/events';
import type { NpcTemplate } from '../content/world';
import { type SimContext, matchByName, requireAlive, requirePlayer } from './context';
import { assertNotCompanion } from './companions';
import { dispositionOf, npcsIn } from './disposition';
import type { MudAction } from '../commands/actions';
import { InvalidActionError, reject } from './errors';
import { countOf } from './inventory';

/** A listing as the marketplace hands it to the world. */
export interface MarketListingView {
  id: string;
  title: string;
  qty: number;
  price: number;
  currency: 'soft' | 'hard';
}

/**
 * The platform's marketplace as the world reaches it through a broker NPC (`trade`). The world defines the port and
 * services/marketplace implements it; every method throws the marketplace's refusals (409 LISTING_SOLD,
 * INSUFFICIENT_FUNDS, ITEM_NOT_IN_INVENTORY, ...), which reach the player as the action's error.
 */
export interface WorldMarket {
  /** Lists `qty` of an inventory item (taken out of the live player into escrow). */
  list(
    userId: string,
    input: { item: string; qty: number; price: { currency: 'soft' | 'hard'; amount: number } },
  ): Promise<MarketListingView>;
  /** Active listings matching `query` (all when absent), best first. */
  browse(query: string | undefined, limit: number): Promise<MarketListingView[]>;
  /** The player's own active listings, newest first. */
  mine(userId: string, limit: number): Promise<MarketListingView[]>;
  /** Buys a listing (idempotent per player and listing); the item arrives in the live player's pack. */
  buy(userId: string, listingId: string): Promise<{ listing: MarketListingView; fee: number }>;
  /** Cancels the player's own listing; its item comes back. */
  cancel(userId: string, listingId: string): Promise<MarketListingView>;
}

/** The `trade` action's operations. */
export type TradeAction =
  | { op: 'list'; item: string; qty?: number; price: number; currency?: 'soft' | 'hard' }
  | { op: 'browse'; query?: string }
  | { op: 'mine' }
  | { op: 'buy'; listing: string }
  | { op: 'cancel'; listing: string };

/** The `trade` action as it arrives (one schema for every op; `toTradeAction` checks what each op needs). */
export type TradeInput = Extract<MudAction, { action: 'trade' }>;

/** The operation a `trade` action asks for; 400 INVALID_ACTION when a field its op needs is missing. */
export function toTradeAction(input: TradeInput): TradeAction {
  const need = (value: string | number | undefined, field: string): never | void => {
    if (value === undefined)
      throw new InvalidActionError(`trade ${input.op} needs ${field}`, [
        { path: field, message: 'required' },
      ]);
  };
  switch (input.op) {
    case 'list':
      need(input.item, 'item');
      need(input.price, 'price');
      return {
        op: 'list',
        item: input.item as string,
        qty: input.qty,
        price: input.price as number,
        currency: input.currency,
      };
    case 'browse':
      return { op: 'browse', query: input.query };
    case 'mine':
      return { op: 'mine' };
    case 'buy':
    case 'cancel':
      need(input.listing, 'listing');
      return { op: input.op, listing: input.listing as string };
  }
}

/** How many listings a browse shows. */
const SHOWN = 10;
const FULL_ID = /^[0-9a-f]{24}$/;

/** The marketplace as an area room reaches it: its broker desk's answer, once the live player took in the changes. */
export interface RoomMarket {
  trade(userId: string, action: TradeAction): Promise<MarketEventBody>;
}

/**
 * `trade`: through the room's broker desk to the platform's marketplace (409 MARKET_UNAVAILABLE while it is closed);
 * the player sees the broker's answer. Resolves once the marketplace answered.
 */
export function trade(ctx: SimContext, userId: string, input: TradeInput): Promise<void> {
  const market = ctx.market?.();
  if (!market) throw reject('MARKET_UNAVAILABLE', 'The market ledger is closed in this world.');
  return market.trade(userId, toTradeAction(input)).then((body) => ctx.emit({ ...body, to: { userId } }));
}

/**
 * A room's desk for `trade`: checks in the simulation that a willing broker stands in the player's room, calls the
 * marketplace, and answers the event to show. The numbers a player sees (`trade buy 2`) refer to the last list they
 * were shown, kept per player here.
 */
export class MarketDesk {
  private readonly seen = new Map<string, string[]>();

  constructor(private readonly market: WorldMarket) {}

  async trade(ctx: SimContext, userId: string, action: TradeAction): Promise<MarketEventBody> {
    const broker = brokerFor(ctx, userId);
    const actor = { name: broker.name };
    switch (action.op) {
      case 'list': {
        const item = carriedItem(ctx, userId, action.item, action.qty ?? 1);
        const price = { currency: action.currency ?? 'soft', amount: action.price };
        const listed = await this.market.list(userId, { item, qty: action.qty ?? 1, price });
        return { type: 'market.listed', broker: actor, listing: this.lines(userId, [listed])[0] };
      }
      case 'browse':
      case 'mine': {
        const found =
          action.op === 'mine'
            ? await this.market.mine(userId, SHOWN)
            : await this.market.browse(action.query, SHOWN);
        const heading =
          action.op === 'mine' ? 'in your name' : action.query ? `for "${action.query}"` : 'today';
        return { type: 'market.listings', broker: actor, heading, listings: this.lines(userId, found) };
      }
      case 'buy': {
        const bought = await this.market.buy(userId, this.listingId(userId, action.listing));
        return { type: 'market.bought', broker: actor, listing: line(bought.listing, 1), fee: bought.fee };
      }
      case 'cancel': {
        const cancelled = await this.market.cancel(userId, this.listingId(userId, action.listing));
        return { type: 'market.cancelled', broker: actor, listing: line(cancelled, 1) };
      }
    }
  }

  /** Numbers the listings shown to `userId` and remembers their ids for `buy`/`cancel`. */
  private lines(userId: string, listings: MarketListingView[]): MarketListingLine[] {
    this.seen.set(
      userId,
      listings.map((listing) => listing.id),
    );
    return listings.map((listing, i) => line(listing, i + 1));
  }

  /** A number from the player's last list, or a full listing id. */
  private listingId(userId: string, ref: string): string {
    if (FULL_ID.test(ref)) return ref;
    const id = /^\d{1,3}$/.test(ref) ? this.seen.get(userId)?.[Number(ref) - 1] : undefined;
    if (!id)
      throw reject(
        'NO_SUCH_THING',
        `There is no listing "${ref}" in the last list you saw; try "trade browse".`,
      );
    return id;
  }
}

function line(listing: MarketListingView, n: number): MarketListingLine {
  return { n, ...listing };
}

/** The broker in the player's room who will deal with them (409 NO_BROKER / NPC_REFUSES otherwise). */
function brokerFor(ctx: SimContext, userId: string): NpcTemplate {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  const broker = npcsIn(ctx, player.roomRef).find((npc) => npc.broker);
  if (!broker)
    throw reject('NO_BROKER', 'There is no broker here; the market ledger is kept in the village market.');
  if (dispositionOf(ctx, userId, broker) === 'wary')
    throw reject('NPC_REFUSES', `${broker.name} will not keep your business in the ledger.`);
  return broker;
}

/** The ref of a carried item matching `query` the player has at least `qty` of. */
function carriedItem(ctx: SimContext, userId: string, query: string, qty: number): string {
  const player = requirePlayer(ctx, userId);
  assertNotCompanion(ctx.world, query, player);
  const carried = [...player.inventory.keys()]
    .map((ref) => ctx.world.items.get(ref))
    .filter((i) => i !== undefined);
  const item = matchByName(carried, query, (i) => [i.ref, i.id, i.name]);
  if (!item) throw reject('NOT_CARRIED', `You are not carrying "${query}".`);
  if (countOf(player, item.ref) < qty)
    throw reject('NOT_ENOUGH', `You carry only ${countOf(player, item.ref)} of ${item.name}.`);
  return item.ref;
}
