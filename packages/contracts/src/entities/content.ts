// Fixed content entities: FAQ entries and partners (spec §3).
import { z } from 'zod';

export const faqEntrySchema = z.object({
  id: z.string(),
  icon: z.string(),
  question: z.string(),
  answer: z.string(),
});
export type FaqEntry = z.infer<typeof faqEntrySchema>;

export const partnerSchema = z.object({
  id: z.string(),
  name: z.string(),
  subtitle: z.string(),
  description: z.string(),
  logo: z.string(),
  category: z.string(),
  features: z.array(z.string()),
  stats: z.object({ slots: z.number().int(), uptime: z.string(), language: z.string() }),
  links: z.record(z.string(), z.string()),
  verified: z.boolean(),
  featured: z.boolean(),
});
export type Partner = z.infer<typeof partnerSchema>;
