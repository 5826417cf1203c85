import type { Channel } from '../../../rooms/text/narration';

/** How one terminal wants its text: its window width (NAWS) and whether it shows ANSI colour. */
export interface TerminalStyle {
  /** Columns to wrap at (NAWS width, 80 until the client says; 0 or absurd values fall back to 80). */
  width: number;
  colour: boolean;
}

const RESET = '\x1b[0m';

/** ANSI SGR colour of each channel (the first line of a room description is its name, in bold cyan). */
const CHANNEL_COLOURS: Record<Channel, string> = {
  room: '',
  combat: '\x1b[31m',
  chat: '\x1b[33m',
  info: '',
  quest: '\x1b[32m',
  companion: '\x1b[35m',
  system: '\x1b[1;31m',
};
const ROOM_NAME = '\x1b[1;36m';

/** Narrowest and widest wrap widths honoured. */
const MIN_WIDTH = 20;
const MAX_WIDTH = 250;

/**
 * Renders an event's text for a terminal: word-wrapped to the window, coloured by channel unless the player
 * turned colour off, with CR LF line ends (the telnet NVT's). Lines that are already short (the `map` grid) are
 * left exactly as they are.
 */
export function renderEvent(text: string, channel: Channel, type: string, style: TerminalStyle): string {
  const width = usableWidth(style.width);
  const lines = text.split('\n').flatMap((line) => wrap(line, width));
  if (!style.colour) return lines.join('\r\n') + '\r\n';
  const colour = CHANNEL_COLOURS[channel];
  const painted = lines.map((line, i) => {
    const paint = i === 0 && type === 'room.look' ? ROOM_NAME : colour;
    return paint && line ? `${paint}${line}${RESET}` : line;
  });
  return painted.join('\r\n') + '\r\n';
}

/** A plain line of server text (prompts, sign-in), CR LF ended. */
export function renderLine(text: string, style: TerminalStyle): string {
  return (
    text
      .split('\n')
      .flatMap((line) => wrap(line, usableWidth(style.width)))
      .join('\r\n') + '\r\n'
  );
}

/** The width to wrap at: one column short of the window, so a full line does not make the terminal scroll twice. */
function usableWidth(width: number): number {
  if (!Number.isFinite(width) || width < MIN_WIDTH) return 79;
  return Math.min(width, MAX_WIDTH) - 1;
}

/** Word-wraps one line (by code points); a word longer than the width is split. */
export function wrap(line: string, width: number): string[] {
  // A line no longer in UTF-16 units than the width is no longer in code points either (most lines).
  if (line.length <= width || [...line].length <= width) return [line];
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    let rest = word;
    while ([...rest].length > width) {
      if (current) out.push(current);
      current = '';
      const chars = [...rest];
      out.push(chars.slice(0, width).join(''));
      rest = chars.slice(width).join('');
    }
    const joined = current ? `${current} ${rest}` : rest;
    if ([...joined].length > width) {
      out.push(current);
      current = rest;
    } else current = joined;
  }
  if (current) out.push(current);
  return out;
}
