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

/**
 * Word-wraps one line (by code points); a word longer than the width is split. The line's length is counted as it is
 * built, not by re-reading it at every word (room descriptions are long, and every reply and witnessed event is wrapped).
 */
export function wrap(line: string, width: number): string[] {
  // A line no longer in UTF-16 units than the width is no longer in code points either (most lines).
  if (line.length <= width || codePoints(line) <= width) return [line];
  const out: string[] = [];
  let current = '';
  let currentLength = 0;
  for (const word of line.split(' ')) {
    let rest = word;
    let restLength = codePoints(rest);
    while (restLength > width) {
      if (current) out.push(current);
      current = '';
      currentLength = 0;
      const chars = [...rest];
      out.push(chars.slice(0, width).join(''));
      rest = chars.slice(width).join('');
      restLength -= width;
    }
    const joinedLength = current ? currentLength + 1 + restLength : restLength;
    if (joinedLength > width) {
      out.push(current);
      current = rest;
      currentLength = restLength;
    } else {
      current = current ? `${current} ${rest}` : rest;
      currentLength = joinedLength;
    }
  }
  if (current) out.push(current);
  return out;
}

/** The number of code points in `text` (what `[...text].length` says, without building the array). */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) continue;
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      count -= 1;
      i += 1;
    }
  }
  return count;
}
