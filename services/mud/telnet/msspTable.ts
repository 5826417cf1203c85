import type { World } from '../../../rooms/content/world';
import { MSSP_VAL, MSSP_VAR } from './telnetCodes';

/** What MSSP reports that is not in the world data. */
export interface MsspFacts {
  name: string;
  players: number;
  /** When this process started, Unix seconds. */
  uptime: number;
  codebase: string;
  contact: string;
  port: number;
  hostname: string;
  website: string;
}

/**
 * The MUD Server Status Protocol table (tintin.mudhalla.net/protocols/mssp): the required NAME, PLAYERS and UPTIME,
 * the usual descriptive fields, counts from the world data, and the protocols this port speaks.
 */
export function msspTable(facts: MsspFacts, world: World): Array<[string, string]> {
  return [
    ['NAME', facts.name],
    ['PLAYERS', String(facts.players)],
    ['UPTIME', String(facts.uptime)],
    ['CODEBASE', facts.codebase],
    ['CONTACT', facts.contact],
    ['HOSTNAME', facts.hostname],
    ['PORT', String(facts.port)],
    ['WEBSITE', facts.website],
    ['CRAWL DELAY', '-1'],
    ['LANGUAGE', 'English'],
    ['FAMILY', 'Custom'],
    ['GENRE', 'Fantasy'],
    ['SUBGENRE', 'Medieval Fantasy'],
    ['GAMEPLAY', 'Adventure'],
    ['GAMESYSTEM', 'Custom'],
    ['STATUS', 'Alpha'],
    ['AREAS', String(world.areas.size)],
    ['ROOMS', String(world.rooms.size)],
    ['MOBILES', String(world.creatures.size + world.npcs.size)],
    ['OBJECTS', String(world.items.size)],
    ['HELPFILES', String(world.help.size)],
    ['CLASSES', '0'],
    ['RACES', '0'],
    ['ANSI', '1'],
    ['GMCP', '1'],
    ['MCCP', '1'],
    ['MSSP', '1'],
    ['UTF-8', '1'],
    ['VT100', '0'],
    ['XTERM 256 COLORS', '0'],
    ['MXP', '0'],
    ['MSDP', '0'],
    ['MSP', '0'],
    ['PUEBLO', '0'],
    ['SSL', '0'],
    ['PAY TO PLAY', '0'],
    ['PAY FOR PERKS', '0'],
    ['HIRING BUILDERS', '0'],
    ['HIRING CODERS', '0'],
  ];
}

/** The MSSP subnegotiation payload: MSSP_VAR name MSSP_VAL value, for every row. */
export function msspPayload(rows: Array<[string, string]>): Buffer {
  return Buffer.concat(
    rows.flatMap(([name, value]) => [
      Buffer.of(MSSP_VAR),
      Buffer.from(name, 'utf8'),
      Buffer.of(MSSP_VAL),
      Buffer.from(value, 'utf8'),
    ]),
  );
}
