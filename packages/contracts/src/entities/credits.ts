// Credit balance, ledger entries and the daily reset countdown (spec §3).
import { z } from 'zod';

export const CREDIT_TRANSACTION_TYPES = [
  'spend',
  'map_protection',
  'refund',
  'reset',
  'admin_add',
  'admin_remove',
  'purchase',
] as const;
export const creditTransactionTypeSchema = z.enum(CREDIT_TRANSACTION_TYPES);
export type CreditTransactionType = z.infer<typeof creditTransactionTypeSchema>;

export const creditTransactionSchema = z.object({
  type: creditTransactionTypeSchema,
  /** Signed: negative for a spend or a removal. */
  amount: z.number().int(),
  message: z.string(),
  date: z.string(),
});
export type CreditTransaction = z.infer<typeof creditTransactionSchema>;

export const timeUntilResetSchema = z.object({
  hours: z.number().int().nonnegative(),
  minutes: z.number().int().nonnegative(),
  seconds: z.number().int().nonnegative(),
  total_seconds: z.number().int().nonnegative(),
});
export type TimeUntilReset = z.infer<typeof timeUntilResetSchema>;

export const creditsInfoSchema = z.object({
  credits: z.number().int(),
  time_until_reset: timeUntilResetSchema,
  transactions: z.array(creditTransactionSchema),
  reset_in_progress: z.boolean(),
});
export type CreditsInfo = z.infer<typeof creditsInfoSchema>;
