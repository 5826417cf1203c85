import type { Room } from '@colyseus/sdk';
import { api, type Me } from './api';
import { WorldConnection, type LinkStatus } from './connection';
import { mapOf, roomOf, updateQuests } from './events';
import { NotificationsPanel } from './notifications';
import { forgetToken, resume, saveToken } from './session';
import { describe, showSignIn } from './signIn';
import { GameView, type AreaView } from './view';
import { injectedWallet, signInWithWallet } from './wallet';

const HISTORY_LIMIT = 50;

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} missing from the page`);
  return element as T;
}

const STATUS_TEXT: Record<LinkStatus, string> = {
  connecting: 'connecting…',
  online: 'online',
  reconnecting: 'reconnecting…',
  'signed-out': 'signed out',
};

/** The game screen for a signed-in user: world connection, view, command line with history. */
async function play(token: string, me: Me): Promise<void> {
  byId('sign-in').hidden = true;
  byId('game').hidden = false;
  byId('who').textContent = `${me.display_name ?? 'Traveller'} · ${me.tier_name}`;
  byId('log').replaceChildren();
  let state: AreaView | undefined;
  let frame = 0;
  const redraw = () => {
    frame = 0;
    if (state) view.render(state, me.id);
  };
  const scheduleRedraw = () => (frame ||= requestAnimationFrame(redraw));

  const view = new GameView((line) => send(line));
  const connection = new WorldConnection(token, {
    onRoom(room: Room) {
      room.onStateChange((next) => {
        state = next as AreaView;
        scheduleRedraw();
      });
    },
    onEvents(events) {
      view.log(events);
      for (const event of events) {
        const room = roomOf(event);
        if (room) view.showRoom(room);
        const map = mapOf(event);
        if (map) view.showMap(map);
        if (updateQuests(view.questLog, event)) view.renderQuests();
      }
      scheduleRedraw();
    },
    onStatus(status, detail) {
      const label = byId('connection');
      label.textContent = STATUS_TEXT[status];
      label.classList.toggle('online', status === 'online');
      if (status === 'reconnecting' && detail) label.title = detail;
    },
    onUnauthenticated() {
      forgetToken();
      location.reload();
    },
  });

  const history: string[] = [];
  let cursor = 0;
  const input = byId<HTMLInputElement>('command');
  function send(line: string): void {
    if (!connection.command(line)) view.note('Not connected yet: the line was not sent.');
  }
  byId<HTMLFormElement>('command-form').onsubmit = (event) => {
    event.preventDefault();
    const line = input.value.trim();
    if (!line) return;
    send(line);
    if (history[history.length - 1] !== line) history.push(line);
    if (history.length > HISTORY_LIMIT) history.shift();
    cursor = history.length;
    input.value = '';
  };
  input.onkeydown = (event) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    cursor = Math.max(0, Math.min(history.length, cursor + (event.key === 'ArrowUp' ? -1 : 1)));
    input.value = history[cursor] ?? '';
  };

  const notifications = new NotificationsPanel(
    token,
    byId('notifications'),
    byId('notifications-unread'),
    byId<HTMLDetailsElement>('notifications-panel'),
  );
  notifications.start().catch(() => view.note('Notifications are unavailable right now.'));

  byId('sign-out').onclick = async () => {
    notifications.close();
    await connection.close();
    await api('POST', '/auth/logout', { token }).catch(() => undefined);
    forgetToken();
    location.reload();
  };
  const wallet = injectedWallet();
  const link = byId<HTMLButtonElement>('link-wallet');
  link.hidden = !wallet || me.tier >= 2;
  link.onclick = async () => {
    if (!wallet) return;
    try {
      const session = await signInWithWallet(wallet, token);
      saveToken(session.token);
      view.note('Wallet linked: your character and progress stay with it.');
      link.hidden = true;
    } catch (error) {
      view.note(`Wallet not linked: ${describe(error)}`);
    }
  };
  view.renderQuests();
  input.focus();
  await connection.start();
}

async function boot(): Promise<void> {
  const session = await resume();
  if (session) {
    await play(session.token, session.me);
    return;
  }
  showSignIn(async (token) => {
    saveToken(token);
    const resumed = await resume();
    if (resumed) await play(resumed.token, resumed.me);
  });
}

void boot();
