import type { MemoryService } from '../brain';

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

/**
 * The notification kinds the social area publishes: another person marked the user fren or foe (payload `by`, the
 * marker's identity key, and `reason`), and a chat or game account was linked to the user (`platform`, `user_id`).
 * The notifications area lists each (services/notifications/notificationKinds.ts; a test holds the two together).
 */
export const SOCIAL_NOTIFICATION_KINDS = ['social.fren', 'social.foe', 'social.link_confirmed'] as const;
export type SocialNotificationKind = (typeof SOCIAL_NOTIFICATION_KINDS)[number];

/** Tells a web user something happened (fren/foe marks toward them, link confirmations): issue 24's notifications. */
export type SocialNotify = (
  userId: string,
  kind: SocialNotificationKind,
  payload: Record<string, unknown>,
) => void;

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
