import type { MarketEventBody, MarketListingLine } from './events';

/** Formatters of the marketplace events (merged into `narration.ts`). */

type Channel = 'room' | 'combat' | 'chat' | 'info' | 'quest' | 'companion' | 'system';
type MarketType = MarketEventBody['type'];
type Formatter<T extends MarketType> = (
  event: Extract<MarketEventBody, { type: T }>,
  viewer: string,
) => string;

const price = (line: MarketListingLine) =>
  `${line.price} ${line.currency === 'soft' ? (line.price === 1 ? 'coin' : 'coins') : 'hard'}`;
const item = (line: MarketListingLine) => `${line.title}${line.qty > 1 ? ` x${line.qty}` : ''}`;

export const MARKET_FORMATTERS: { [T in MarketType]: [Channel, Formatter<T>] } = {
  'market.listed': [
    'info',
    (e) =>
      `${e.broker.name} writes it in the ledger: ${item(e.listing)} for ${price(e.listing)}. It is held in escrow until it sells or you cancel it.`,
  ],
  'market.listings': [
    'info',
    (e) =>
      e.listings.length === 0
        ? `${e.broker.name} turns the pages: nothing ${e.heading}.`
        : [
            `${e.broker.name} reads out what is on offer ${e.heading}:`,
            ...e.listings.map((line) => `  ${line.n}. ${item(line)}: ${price(line)}`),
          ].join('\n'),
  ],
  'market.bought': [
    'info',
    (e) => `You buy ${item(e.listing)} for ${price(e.listing)} through ${e.broker.name}. It is in your pack.`,
  ],
  'market.cancelled': [
    'info',
    (e) => `${e.broker.name} strikes ${item(e.listing)} from the ledger and hands it back to you.`,
  ],
};
