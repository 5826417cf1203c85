import fs from 'node:fs';
import path from 'node:path';
import { loadWorld } from '../../../../rooms/content/loader';
import { RoomAtlas } from '../../../../services/mud/roomAtlas';
import { freePort } from '../../../helpers/nginx';
import type { TestPlatform } from '../../../helpers/platform';
import { type RunningTintin, startTintin } from '../../../helpers/tintin';
import { act, signIn, startWorldPlatform } from '../worldPlatform';

/**
 * TinTin++'s script: answer GMCP (TinTin++ refuses it unless a script does), sign in as a guest at the prompt, and
 * build the map from GMCP Room.Info — go to the room's number (digging it if new), name it, dig its exits to the
 * numbers Room.Info gives — then log where the map says we are.
 */
function tintinScript(port: number, dir: string): string {
  return `
#config {log} {plain}
#event {IAC WILL GMCP} {#send {\\xFF\\xFD\\xC9\\}}
#event {SESSION CONNECTED} {#map create 50000; #map flag nofollow}
#action {^Name or email:} {guest Tin Tom}
#event {IAC SB GMCP}
{
  #if {"%0" == "Room.Info"}
  {
    #var room {%1};
    #map goto {$room[num]} {dig};
    #map set roomname {$room[name]};
    #map set roomarea {$room[area]};
    #foreach {*room[exits][]} {dir} {#map dig {$dir} {$room[exits][$dir]}};
    #map get roomvnum here;
    #line log {${dir}/rooms.log} {ROOM $here $room[name]}
  }
}
#session forge 127.0.0.1 ${port}
`;
}

/** Reads a file TinTin++ writes, '' until it exists. */
const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

/** Polls `check` (every 50 ms, up to `timeoutMs`), failing with `describe()` when it never holds. */
async function until(check: () => boolean, describe: () => string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out; ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('telnet port with a real client: Debian TinTin++ under tmux', () => {
  let server: TestPlatform;
  let tintin: RunningTintin | undefined;
  let atlas: RoomAtlas;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    server = await startWorldPlatform({ TELNET_PORT: String(port) });
    atlas = new RoomAtlas(await loadWorld());
  }, 120_000);
  afterAll(async () => {
    tintin?.stop();
    await server.stop();
  });

  it('signs in as a guest, moves and speaks, and its map follows GMCP Room.Info', async () => {
    const square = atlas.room('village:square')!;
    const market = atlas.room('village:market')!;
    const bob = await signIn(server.url);
    await act(server.url, bob, { action: 'look' }).expect(200);

    tintin = startTintin((dir) => tintinScript(port, dir));
    const logFile = path.join(tintin.dir, 'rooms.log');
    const shown = () => `rooms.log:\n${read(logFile)}\nscreen:\n${tintin!.screen()}`;

    await until(() => read(logFile).includes(`ROOM ${square.num} Village Square`), shown);
    await until(() => /Village Square/.test(tintin!.screen()), shown);

    tintin.type('east');
    await until(() => read(logFile).includes(`ROOM ${market.num} Market Row`), shown);
    tintin.type('west');
    await until(() => read(logFile).trim().endsWith(`ROOM ${square.num} Village Square`), shown);

    // Bob, on the web side, hears it (REST answers carry what he witnessed since his last call).
    tintin.type('say hello from tintin');
    const heard: string[] = [];
    const deadline = Date.now() + 15_000;
    while (!heard.includes('Tin Tom says: "hello from tintin"') && Date.now() < deadline) {
      const look = await act(server.url, bob, { action: 'look' }).expect(200);
      heard.push(...look.body.events.map((event: { text: string }) => event.text));
    }
    expect(heard).toContain('Tin Tom says: "hello from tintin"');

    const mapFile = path.join(tintin.dir, 'forge.map');
    tintin.type(`#map write {${mapFile}}`);
    await until(() => read(mapFile).includes('Market Row'), shown);
    const map = read(mapFile);
    const rooms = [...map.matchAll(/^R \{\s*(\d+)\} \{[^}]*\} \{[^}]*\} \{([^}]*)\}/gm)].map(
      ([, vnum, name]) => [Number(vnum), name],
    );
    expect(rooms).toEqual(
      expect.arrayContaining([
        [square.num, 'Village Square'],
        [market.num, 'Market Row'],
      ]),
    );
    expect(map).toMatch(new RegExp(`^E \\{\\s*${market.num}\\} \\{east\\}`, 'm'));
  }, 120_000);
});
