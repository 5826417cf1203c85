import type { NotificationRecord } from '../../models/Notification';
import type { NotificationView } from './schemas';

/** A stored notification as its owner sees it. */
export function presentNotification(record: NotificationRecord): NotificationView {
  return {
    id: record._id.toHexString(),
    kind: record.kind,
    payload: record.payload,
    created_at: record.createdAt.toISOString(),
    read_at: record.readAt ? record.readAt.toISOString() : null,
  };
}
