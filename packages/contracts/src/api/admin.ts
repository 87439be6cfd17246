// Calls of spec §7 "Notifications" and "Back-office".
import { z } from 'zod';
import { memberSchema, memberStatsSchema, steamIdSchema } from '../entities/user.js';
import { notificationSchema } from '../entities/notifications.js';
import { reportSchema, reportStatsSchema, reportStatusSchema } from '../entities/reports.js';
import { scanListItemSchema, scanStatsSchema } from '../entities/scan.js';
import { assignableRankSchema, rankInfoSchema, rankSchema } from '../ranks.js';

export const unreadCountResponseSchema = z.object({ count: z.number().int().nonnegative() });
export const notificationsResponseSchema = z.object({ notifications: z.array(notificationSchema) });
export const notificationIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const okResponseSchema = z.object({ success: z.literal(true) });

export const adminFilesResponseSchema = z.object({
  files: z.array(
    z.object({ filename: z.string(), scan_id: z.string(), size: z.number().int().nonnegative() }),
  ),
});
export const adminScansResponseSchema = z.object({
  scans: z.array(scanListItemSchema.extend({ username: z.string() })),
});
export const adminScanStatsResponseSchema = scanStatsSchema;
export const memberStatsResponseSchema = memberStatsSchema;
export const membersResponseSchema = z.object({
  members: z.array(memberSchema),
  total: z.number().int().nonnegative(),
});
export const membersQuerySchema = z.object({ search: z.string().max(128).optional() });
export const ranksResponseSchema = z.object({ ranks: z.record(rankSchema, rankInfoSchema) });
export const steamIdParamsSchema = z.object({ steam_id: steamIdSchema });
export const setCreditsRequestSchema = z.object({
  credits: z.number().int().min(0).max(1_000_000),
});
export const setCreditsResponseSchema = z.object({
  steam_id: z.string(),
  credits: z.number().int(),
});
export const setRankRequestSchema = z.object({ rank: assignableRankSchema });
export const setRankResponseSchema = z.object({ steam_id: z.string(), rank: rankSchema });
export const scanIdAdminParamsSchema = z.object({ scan_id: z.string().min(1).max(64) });
export const filenameParamsSchema = z.object({ filename: z.string().min(1).max(512) });
export const reportsResponseSchema = z.object({ reports: z.array(reportSchema) });
export const reportStatsResponseSchema = reportStatsSchema;
export const reportIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const setReportStatusRequestSchema = z.object({
  status: reportStatusSchema,
  managed_by: z.string().max(128).optional(),
  managed_by_steamid: z.string().max(32).optional(),
});
export const setReportStatusResponseSchema = reportSchema;

/**
 * What PUT /api/members/:steam_id/rank accepts: any rank name, so that naming super_admin
 * gets its own answer (400 rank_not_assignable) rather than a generic validation failure.
 * Clients should build the request with setRankRequestSchema.
 */
export const rankChangeBodySchema = z.object({ rank: rankSchema });
/** DELETE /api/admin/delete-scan/:scan_id: the scan that was deleted. */
export const deleteScanResponseSchema = z.object({ success: z.literal(true), scan_id: z.string() });
/** Bulk notification calls (read-all, delete all): how many notifications changed for the caller. */
export const notificationsChangedResponseSchema = z.object({
  success: z.literal(true),
  changed: z.number().int().nonnegative(),
});
