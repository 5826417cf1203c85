import { renderEvent, wrap } from '../../../../services/mud/telnet/terminalText';

describe('terminal text', () => {
  it('word-wraps by code points and splits words longer than the width', () => {
    expect(wrap('the quick brown fox', 9)).toEqual(['the quick', 'brown fox']);
    expect(wrap('😀😀😀 ab', 4)).toEqual(['😀😀😀', 'ab']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrap('short', 80)).toEqual(['short']);
  });

  it('colours by channel, the room name in bold cyan, CR LF line ends, and nothing with colour off', () => {
    expect(renderEvent('Square\nQuiet.', 'room', 'room.look', { width: 80, colour: true })).toBe(
      '\x1b[1;36mSquare\x1b[0m\r\nQuiet.\r\n',
    );
    expect(renderEvent('You hit.', 'combat', 'combat.hit', { width: 80, colour: true })).toBe(
      '\x1b[31mYou hit.\x1b[0m\r\n',
    );
    expect(renderEvent('You hit.', 'combat', 'combat.hit', { width: 80, colour: false })).toBe(
      'You hit.\r\n',
    );
  });
});
