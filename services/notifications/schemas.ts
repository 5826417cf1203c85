import { z } from 'zod';

const objectId = z.string().regex(/^[0-9a-f]{24}$/, 'must be a 24-hex-digit id');

/** One notification as its owner sees it (REST and socket frames). */
export const NotificationSchema = z
  .object({
    id: z.string().meta({ description: 'Stable id; clients dedupe on it (delivery is at-least-once)' }),
    kind: z
      .string()
      .meta({ description: 'e.g. marketplace.sale, economy.transfer_received, companion.bond' }),
    payload: z.record(z.string(), z.unknown()),
    created_at: z.iso.datetime(),
    read_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Notification' });
export type NotificationView = z.infer<typeof NotificationSchema>;

export const NotificationListQuerySchema = z.object({
  cursor: objectId.optional().meta({ description: 'next_cursor of the previous page' }),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  unread: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true')
    .meta({ description: 'true: only unread notifications' }),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuerySchema>;

export const NotificationPageSchema = z
  .object({
    notifications: z.array(NotificationSchema),
    next_cursor: z.string().nullable(),
    unread_count: z.number().int(),
  })
  .meta({ id: 'NotificationPage' });
export type NotificationPage = z.infer<typeof NotificationPageSchema>;

export const MarkReadRequestSchema = z
  .strictObject({ ids: z.array(objectId).min(1).max(100) })
  .meta({ id: 'NotificationsReadRequest' });
export type MarkReadRequest = z.infer<typeof MarkReadRequestSchema>;

export const MarkReadResultSchema = z
  .object({
    updated: z.number().int().meta({ description: 'How many of the ids were yours and unread' }),
    unread_count: z.number().int(),
  })
  .meta({ id: 'NotificationsReadResult' });
export type MarkReadResult = z.infer<typeof MarkReadResultSchema>;
