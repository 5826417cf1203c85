import { OptionStates } from '../../../../services/mud/telnet/optionStates';
import { DO, DONT, Option, WILL, WONT } from '../../../../services/mud/telnet/telnetCodes';

describe('OptionStates (RFC 854/855, no loops)', () => {
  const build = () => new OptionStates([Option.GMCP, Option.ECHO], [Option.NAWS], [Option.ECHO]);

  it('turns an option we offered on without answering the answer', () => {
    const states = build();
    expect(states.ask(Option.GMCP)).toBe(WILL);
    expect(states.ask(Option.GMCP)).toBeUndefined();
    expect(states.receive(DO, Option.GMCP)).toEqual({ turned: 'on' });
    expect(states.receive(DO, Option.GMCP)).toEqual({});
    expect(states.isOn(Option.GMCP)).toBe(true);
    expect(states.receive(DONT, Option.GMCP)).toEqual({ reply: WONT, turned: 'off' });
    expect(states.receive(DONT, Option.GMCP)).toEqual({});
  });

  it('agrees to a client that asks first, and takes a refusal of our offer quietly', () => {
    const states = build();
    expect(states.receive(WILL, Option.NAWS)).toEqual({ reply: DO, turned: 'on' });
    expect(states.ask(Option.GMCP)).toBe(WILL);
    expect(states.receive(DONT, Option.GMCP)).toEqual({ turned: 'off' });
  });

  it('refuses options it does not speak, and ECHO unless we asked for it', () => {
    const states = build();
    expect(states.receive(DO, 99)).toEqual({ reply: WONT });
    expect(states.receive(WILL, 99)).toEqual({ reply: DONT });
    expect(states.receive(WONT, 99)).toEqual({});
    expect(states.receive(DO, Option.ECHO)).toEqual({ reply: WONT });
    expect(states.ask(Option.ECHO)).toBe(WILL);
    expect(states.receive(DO, Option.ECHO)).toEqual({ turned: 'on' });
    expect(states.withdraw(Option.ECHO)).toBe(WONT);
    expect(states.receive(DONT, Option.ECHO)).toEqual({});
  });
});
