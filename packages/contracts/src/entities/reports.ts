// Problem reports sent by members and handled by staff (spec §3, §5).
import { z } from 'zod';
import { REPORT_MESSAGE_MAX } from '../constants.js';
import { languageSchema } from './scan.js';

/** Categories of the member form. The spec's client sends French labels; both are accepted. */
export const REPORT_CATEGORIES = [
  'falsePositive',
  'missedThreat',
  'wrongCategory',
  'performance',
  'other',
] as const;
export const reportCategorySchema = z.enum(REPORT_CATEGORIES);
export type ReportCategory = z.infer<typeof reportCategorySchema>;

/** French labels the original client sends for each category. */
export const REPORT_CATEGORY_FRENCH_LABELS: Record<ReportCategory, string> = {
  falsePositive: 'Faux positif',
  missedThreat: 'Menace non détectée',
  wrongCategory: 'Mauvaise catégorie',
  performance: 'Performance',
  other: 'Autre',
};

export const REPORT_STATUSES = ['open', 'in_progress', 'closed', 'cancelled'] as const;
export const reportStatusSchema = z.enum(REPORT_STATUSES);
export type ReportStatus = z.infer<typeof reportStatusSchema>;

export const problemReportRequestSchema = z.object({
  category: z.string().trim().min(1),
  message: z
    .string()
    .refine((m) => m.trim().length > 0, { message: 'required' })
    .refine((m) => m.length <= REPORT_MESSAGE_MAX, { message: 'too_long' }),
  file_name: z.string().max(512).default(''),
  scan_id: z.string().max(64).default(''),
  language: languageSchema.default('en'),
});
export type ProblemReportRequest = z.infer<typeof problemReportRequestSchema>;

export const reportSchema = z.object({
  id: z.string(),
  category: reportCategorySchema,
  status: reportStatusSchema,
  message: z.string(),
  author_steamid: z.string(),
  author_username: z.string(),
  language: languageSchema,
  scan_id: z.string(),
  filename: z.string(),
  managed_by: z.string().nullable(),
  managed_by_steamid: z.string().nullable(),
  created_at: z.string(),
});
export type Report = z.infer<typeof reportSchema>;

export const reportStatsSchema = z.object({
  total_reports: z.number().int().nonnegative(),
  open_reports: z.number().int().nonnegative(),
  closed_reports: z.number().int().nonnegative(),
});
export type ReportStats = z.infer<typeof reportStatsSchema>;
