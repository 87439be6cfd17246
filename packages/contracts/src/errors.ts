// One error shape for every failure the API reports: a stable `code` the client can branch
// on, and a message already localised from the request's language.
import { z } from 'zod';

export const ERROR_CODES = [
  'validation_failed',
  'not_authenticated',
  'session_expired',
  'forbidden',
  'not_found',
  'scan_expired',
  'file_required',
  'file_not_zip',
  'file_too_large',
  'archive_corrupt',
  'insufficient_credits',
  'analysis_unavailable',
  'analysis_failed',
  'scan_not_finished',
  'scan_not_cancellable',
  'invalid_credentials',
  'login_failed',
  'rank_not_assignable',
  'own_rank',
  'purchase_unavailable',
  'rate_limited',
  'payload_too_large',
  'internal_error',
] as const;
export const errorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const apiErrorSchema = z.object({
  error: z.object({
    code: errorCodeSchema,
    message: z.string(),
    /** Extra values the message was built from (e.g. balance and required credits). */
    details: z.record(z.string(), z.unknown()).optional(),
  }),
  /** The spec's client reads `detail` for scan errors; it carries the same message. */
  detail: z.string(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
