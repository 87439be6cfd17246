// The signed-in user and the member records staff see (spec §3).
import { z } from 'zod';
import { rankInfoSchema, rankSchema } from '../ranks.js';

export const steamIdSchema = z.string().regex(/^7656119\d{10}$/, 'a SteamID64');

export const userSchema = z.object({
  username: z.string(),
  steamid: z.string(),
  avatar: z.string(),
  level: z.number().int().nonnegative(),
  level_progress_percentage: z.number().min(0).max(100),
  xp: z.number().int().nonnegative(),
  credits: z.number().int(),
  is_admin: z.boolean(),
  rank: rankSchema,
  rank_info: rankInfoSchema,
  /** 'steam' for a member signed in through Steam, 'staff' for a username/password account. */
  account_kind: z.enum(['steam', 'staff']),
});
export type User = z.infer<typeof userSchema>;

export const memberSchema = z.object({
  steam_id: z.string(),
  username: z.string(),
  personaname: z.string(),
  avatar: z.string(),
  avatarfull: z.string(),
  profile_url: z.string(),
  rank: rankSchema,
  credits: z.number().int(),
  level: z.number().int().nonnegative(),
  level_progress_percentage: z.number().min(0).max(100),
  scan_count: z.number().int().nonnegative(),
  first_login: z.string(),
  last_login: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

export const memberStatsSchema = z.object({ total_members: z.number().int().nonnegative() });
export type MemberStats = z.infer<typeof memberStatsSchema>;
