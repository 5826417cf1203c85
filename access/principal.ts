import type { Types } from 'mongoose';
import type { UserRole } from '../models/User';
import type { SessionMethod } from '../models/Session';

/** Who is calling: a signed-in user (through a session) or a trusted service holding BRAIN_SERVICE_TOKEN. */
export type Principal =
  | {
      kind: 'user';
      userId: Types.ObjectId;
      sessionId: Types.ObjectId;
      method: SessionMethod;
      roles: UserRole[];
      tier: number;
      /** Wallet sessions: the checksummed address that signed in. */
      address?: string;
    }
  | { kind: 'service' };

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the authentication middleware when a valid credential was presented. */
    principal?: Principal;
  }
}
