import { z } from 'zod';

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  database: z.literal('ok'),
  queue: z.object({
    queued: z.number().int().nonnegative(),
    running: z.number().int().nonnegative(),
  }),
});
