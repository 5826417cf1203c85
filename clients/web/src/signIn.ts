import { api, ApiProblem, type SessionBody } from './api';
import { injectedWallet, signInWithWallet } from './wallet';

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} missing from the page`);
  return element as T;
}

function field(id: string): string {
  return byId<HTMLInputElement>(id).value.trim();
}

/** A problem as a sentence for the status line. */
export function describe(error: unknown): string {
  if (error instanceof ApiProblem) {
    if (error.code === 'EMAIL_DISABLED') return 'Email sign-in is not configured on this server.';
    if (error.code === 'SIWE_DISABLED') return 'Wallet sign-in is disabled on this server.';
    return `${error.message} (${error.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The sign-in screen: guest play (with an optional name), a browser wallet (SIWE) and email (register, verify with
 * the mailed code, log in). `onSignedIn` receives the new session token.
 */
export function showSignIn(onSignedIn: (token: string) => void): void {
  byId('game').hidden = true;
  byId('sign-in').hidden = false;
  const status = byId('sign-in-status');
  const say = (text: string) => (status.textContent = text);
  const run = (task: () => Promise<SessionBody | void>) => async (event?: Event) => {
    event?.preventDefault();
    say('Working…');
    try {
      const session = await task();
      if (session) onSignedIn(session.token);
    } catch (error) {
      say(describe(error));
    }
  };

  byId<HTMLFormElement>('guest-form').onsubmit = run(() => {
    const name = field('guest-name');
    return api<SessionBody>('POST', '/auth/guest', name ? { body: { display_name: name } } : {});
  });

  const wallet = injectedWallet();
  const walletButton = byId<HTMLButtonElement>('wallet-sign-in');
  walletButton.disabled = !wallet;
  byId('wallet-note').hidden = Boolean(wallet);
  walletButton.onclick = run(async () => (wallet ? signInWithWallet(wallet) : undefined));

  byId<HTMLFormElement>('email-form').onsubmit = run(() =>
    api<SessionBody>('POST', '/auth/email/login', {
      body: { email: field('email'), password: byId<HTMLInputElement>('password').value },
    }),
  );
  byId('email-register').onclick = run(async () => {
    await api('POST', '/auth/email/register', {
      body: { email: field('email'), password: byId<HTMLInputElement>('password').value },
    });
    byId('verify-form').hidden = false;
    byId('verify-code').focus();
    say('Check your mail for the code (on a development server: the log, or /dev/outbox).');
  });
  byId<HTMLFormElement>('verify-form').onsubmit = run(() =>
    api<SessionBody>('POST', '/auth/email/verify', { body: { code: field('verify-code') } }),
  );
  byId('guest-play').focus();
}
