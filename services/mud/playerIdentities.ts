import { LRUCache } from 'lru-cache';
import type { Connection, Types } from 'mongoose';
import { userModel } from '../../models/User';
import type { Authenticate, PlayerIdentity } from '../../rooms/persistence';
import type { Sessions } from '../auth';

/** How long a user's character name is remembered before it is read again, ms. */
const NAME_TTL_MS = 60_000;

/**
 * Turns platform users into world players. The player id is the user id (hex); the name a new character
 * gets is the user's display name, or `Traveller-<last 6 hex digits of the id>` when they have none.
 */
export class PlayerIdentities {
  private readonly users;
  private readonly names = new LRUCache<string, string>({ max: 10_000, ttl: NAME_TTL_MS });

  constructor(
    connection: Connection,
    private readonly sessions: Sessions,
  ) {
    this.users = userModel(connection);
  }

  /** A session token → its player (area room `onAuth`, the plain WebSocket handshake); null when invalid. */
  readonly authenticate: Authenticate = async (token) => {
    const principal = await this.sessions.authenticate(token);
    return principal ? this.of(principal.userId) : null;
  };

  /** The player of a signed-in user. */
  async of(userId: Types.ObjectId): Promise<PlayerIdentity> {
    const id = userId.toHexString();
    let name = this.names.get(id);
    if (name === undefined) {
      const user = await this.users.findById(userId, { displayName: 1 }).lean();
      name = user?.displayName || `Traveller-${id.slice(-6)}`;
      this.names.set(id, name);
    }
    return { userId: id, name };
  }
}
