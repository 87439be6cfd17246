// Calls of spec §7 "Scanning and member data".
import { z } from 'zod';
import {
  scanListItemSchema,
  scanResultSchema,
  scanStatusSchema,
  languageSchema,
} from '../entities/scan.js';
import { creditsInfoSchema } from '../entities/credits.js';

/** Multipart field `deep_scan` arrives as text. */
export const deepScanFieldSchema = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1');

export const scanAcceptedResponseSchema = z.object({ scan_id: z.string() });
export const scanIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const scanStatusResponseSchema = z.object({
  scan_id: z.string(),
  status: scanStatusSchema,
  /** Localised failure reason when status is `failed`. */
  error: z.string().optional(),
});
export const scanResultResponseSchema = scanResultSchema;
export const scanCancelResponseSchema = z.object({ scan_id: z.string(), status: scanStatusSchema });

export const languageQuerySchema = z.object({ language: languageSchema.optional() });

export const myScansResponseSchema = z.object({ scans: z.array(scanListItemSchema) });

export const myCreditsResponseSchema = creditsInfoSchema;
export const addCreditsResponseSchema = z.object({ message: z.string() });
export const problemReportResponseSchema = z.object({ success: z.literal(true), id: z.string() });
