import { DO, DONT, WILL, WONT } from './telnetCodes';

/** Where one option stands: asked for by us and not answered yet, on, or off. */
type OptionState = 'asked' | 'on' | 'off';

/** What a negotiation changed: the reply to send (if any) and whether the option turned on or off. */
export interface NegotiationResult {
  reply?: number;
  turned?: 'on' | 'off';
}

/**
 * The option state machine of RFC 854/855 (with RFC 1143's rule against loops): a request to enter the state an
 * option is already in is not answered; an answer to our own request is not answered back. `local` options are
 * ones this server performs (WILL/WONT from us, DO/DONT from the client); `remote` ones the client performs (NAWS,
 * TTYPE). Options in neither set are refused once per request.
 */
export class OptionStates {
  private readonly local = new Map<number, OptionState>();
  private readonly remote = new Map<number, OptionState>();

  /**
   * `solicitedOnly`: local options turned on only when we ask (ECHO: a client that asks us to echo unprompted would
   * lose its own echo, and we echo nothing).
   */
  constructor(
    localOptions: number[],
    remoteOptions: number[],
    private readonly solicitedOnly: number[] = [],
  ) {
    for (const option of localOptions) this.local.set(option, 'off');
    for (const option of remoteOptions) this.remote.set(option, 'off');
  }

  /** Marks that we offered (WILL) or asked for (DO) `option`; returns the verb to send, or undefined if on. */
  ask(option: number): number | undefined {
    if (this.local.has(option)) {
      if (this.local.get(option) !== 'off') return undefined;
      this.local.set(option, 'asked');
      return WILL;
    }
    if (this.remote.get(option) !== 'off') return undefined;
    this.remote.set(option, 'asked');
    return DO;
  }

  /** Turns a local option off from our side (WONT ECHO after a password); the verb to send, if it was on. */
  withdraw(option: number): number | undefined {
    if (this.local.get(option) === 'off') return undefined;
    this.local.set(option, 'off');
    return WONT;
  }

  isOn(option: number): boolean {
    return this.local.get(option) === 'on' || this.remote.get(option) === 'on';
  }

  /** Handles the client's DO/DONT/WILL/WONT. */
  receive(verb: number, option: number): NegotiationResult {
    const agree = verb === DO || verb === WILL;
    const table = verb === DO || verb === DONT ? this.local : this.remote;
    const state = table.get(option);
    if (state === undefined) {
      // Not an option we speak: refuse a request to enable; a request to disable is already true.
      if (!agree) return {};
      return { reply: verb === DO ? WONT : DONT };
    }
    if (agree) {
      if (state === 'on') return {};
      if (state === 'off' && this.solicitedOnly.includes(option)) return { reply: verb === DO ? WONT : DONT };
      table.set(option, 'on');
      return state === 'asked' ? { turned: 'on' } : { reply: table === this.local ? WILL : DO, turned: 'on' };
    }
    if (state === 'off') return {};
    table.set(option, 'off');
    if (state === 'asked') return { turned: 'off' };
    return { reply: table === this.local ? WONT : DONT, turned: 'off' };
  }
}
