import type { MemoryService } from '../brain/memory/memoryService';

/** One audited action, in the shape of the platform's `audit_events` (`models/AuditEvent.ts`). */
export interface SocialAuditEvent {
  at: Date;
  actor: string;
  kind: string;
  target: string;
  outcome: string;
  ip: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
}

/** Where the social area's audited actions go (links, unlinks, blocks): the audit log of issue 21 implements it. */
export interface SocialAuditPort {
  record(event: SocialAuditEvent): void;
}

/** Tells a web user something happened (fren/foe marks toward them, link confirmations): issue 24's notifications. */
export type SocialNotify = (userId: string, kind: string, payload: Record<string, unknown>) => void;

/** The other areas the social graph reports to; each is optional and the area works without it. */
export interface SocialPorts {
  /** Each interaction becomes an episodic memory of both people. */
  memory?: MemoryService;
  notify?: SocialNotify;
  audit?: SocialAuditPort;
}

/** Who asked, for the audit log: the actor and the request's address and id. */
export interface RequestOrigin {
  actor: string;
  ip: string | null;
  requestId: string | null;
}
