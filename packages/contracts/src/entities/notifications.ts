// Staff notifications (spec §3).
import { z } from 'zod';

export const NOTIFICATION_TYPES = ['new_member', 'new_report', 'new_scan'] as const;
export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  type: notificationTypeSchema,
  read: z.boolean(),
  created_at: z.string(),
  data: z.object({
    steam_id: z.string().optional(),
    scan_id: z.string().optional(),
    steam_username: z.string().optional(),
    category: z.string().optional(),
  }),
});
export type Notification = z.infer<typeof notificationSchema>;
