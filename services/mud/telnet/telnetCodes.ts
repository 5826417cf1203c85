/**
 * Telnet bytes (RFC 854/855) and the options a MUD server speaks, with the RFC or MUD convention that defines each.
 */

/** Commands (RFC 854). */
export const IAC = 255;
export const DONT = 254;
export const DO = 253;
export const WONT = 252;
export const WILL = 251;
export const SB = 250;
export const GA = 249;
export const NOP = 241;
export const SE = 240;
/** End of record (RFC 885): marks the end of a prompt for clients that asked for EOR. */
export const EOR_CMD = 239;

/** Options. */
export const Option = {
  /** RFC 857: the server echoes (we claim it, then echo nothing, while a password is typed). */
  ECHO: 1,
  /** RFC 858. */
  SGA: 3,
  /** RFC 1091, with MTTS (MUD Terminal Type Standard) in the third answer. */
  TTYPE: 24,
  /** RFC 885: prompts end with IAC EOR. */
  EOR: 25,
  /** RFC 1073: the client's window size. */
  NAWS: 31,
  /** RFC 2066: the character set (we offer UTF-8). */
  CHARSET: 42,
  /** MUD Server Status Protocol (tintin.mudhalla.net/protocols/mssp). */
  MSSP: 70,
  /** MUD Client Compression Protocol v2: everything after IAC SB MCCP2 IAC SE is a zlib stream. */
  MCCP2: 86,
  /** Generic MUD Communication Protocol: `Package.Message <json>` in subnegotiations. */
  GMCP: 201,
} as const;

/** TTYPE subnegotiation verbs (RFC 1091). */
export const TTYPE_IS = 0;
export const TTYPE_SEND = 1;

/** CHARSET subnegotiation verbs (RFC 2066). */
export const CHARSET_REQUEST = 1;
export const CHARSET_ACCEPTED = 2;
export const CHARSET_REJECTED = 3;

/** MSSP variable and value markers. */
export const MSSP_VAR = 1;
export const MSSP_VAL = 2;
