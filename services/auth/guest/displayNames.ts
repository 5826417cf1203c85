import { randomInt } from 'node:crypto';
import type { Connection, Types } from 'mongoose';
import { userModel } from '../../../models/User';
import { NotFoundError } from '../../../platform/errors';
import { GuestErrors } from './errors';

/**
 * Words a display name may not contain (compared without spaces, case-insensitively): names that impersonate
 * the staff or the system, and the generated prefix of nameless characters.
 */
const DENIED_WORDS = [
  'admin',
  'moderator',
  'operator',
  'system',
  'server',
  'support',
  'staff',
  'official',
  'forge',
  'root',
  'traveller',
];

const ADJECTIVES = (
  'Amber Ashen Bold Brisk Copper Dusky Eager Fabled Gentle Hollow Iron Jade Keen Lucky Mossy Nimble Oaken Quiet ' +
  'Rusty Silver Swift Tawny Wild Young'
).split(' ');
const NOUNS = (
  'Badger Bramble Crow Falcon Fern Finch Fox Hare Heron Juniper Lark Marten Otter Owl Pike Raven Rook Sparrow ' +
  'Stag Thistle Wren Willow Wolf Yew'
).split(' ');

/** How many generated names are tried before a number is appended. */
const GENERATION_ATTEMPTS = 5;

const DUPLICATE_KEY = 11000;

/** The key names are unique by: lowercased (names are unique case-insensitively). */
export function displayNameKey(name: string): string {
  return name.toLowerCase();
}

/** Whether `name` contains a denied word (spaces ignored, so "Ad min" counts as "admin"). */
export function isDeniedName(name: string): boolean {
  const squashed = name.toLowerCase().replace(/ /g, '');
  return DENIED_WORDS.some((word) => squashed.includes(word));
}

/** Whether a write failed on the unique display-name index (or another unique index). */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number }).code === DUPLICATE_KEY;
}

/** Generated guest names: two random words ("Quiet Heron"), then with a number once those keep colliding. */
export function* generatedNames(): Generator<string> {
  for (let attempt = 0; ; attempt += 1) {
    const words = `${pick(ADJECTIVES)} ${pick(NOUNS)}`;
    yield attempt < GENERATION_ATTEMPTS ? words : `${words} ${randomInt(10, 10_000)}`;
  }
}

/** Throws 400 DISPLAY_NAME_NOT_ALLOWED for a (schema-valid) name on the deny-list. */
export function assertAllowedName(name: string): void {
  if (isDeniedName(name)) throw GuestErrors.nameNotAllowed();
}

/**
 * Players' display names, unique case-insensitively through the unique `displayNameKey` index, so two concurrent
 * claims of one name cannot both win. The world names a character after its user's display name.
 */
export class DisplayNames {
  private readonly users;

  constructor(connection: Connection) {
    this.users = userModel(connection);
  }

  /** Gives `userId` the (schema-valid) `name`: 400 DISPLAY_NAME_NOT_ALLOWED, 409 DISPLAY_NAME_TAKEN. */
  async assign(userId: Types.ObjectId, name: string): Promise<string> {
    assertAllowedName(name);
    try {
      const user = await this.users.findOneAndUpdate(
        { _id: userId },
        { $set: { displayName: name, displayNameKey: displayNameKey(name) } },
        { returnDocument: 'after' },
      );
      if (!user) throw new NotFoundError('No such user', 'USER_NOT_FOUND');
    } catch (error) {
      if (isDuplicateKey(error)) throw GuestErrors.nameTaken();
      throw error;
    }
    return name;
  }
}

function pick(words: string[]): string {
  return words[randomInt(words.length)] as string;
}
