// The four ranks and what each may do (spec §6). The spec fixes admin_access for staff and
// names the other permissions; which rank holds which is our decision (docs/decisions.md).
import { z } from 'zod';

export const RANKS = ['member', 'support', 'administrator', 'super_admin'] as const;
export const rankSchema = z.enum(RANKS);
export type Rank = z.infer<typeof rankSchema>;

/** Ranks a staff member may give through the rank editor: super_admin is never assignable. */
export const ASSIGNABLE_RANKS = ['member', 'support', 'administrator'] as const;
export const assignableRankSchema = z.enum(ASSIGNABLE_RANKS);

export const permissionsSchema = z.object({
  admin_access: z.boolean(),
  manage_credits: z.boolean(),
  change_rank: z.boolean(),
  delete_scans: z.boolean(),
});
export type Permissions = z.infer<typeof permissionsSchema>;
export type Permission = keyof Permissions;

export const rankInfoSchema = z.object({
  name: z.string(),
  emoji: z.string(),
  permissions: permissionsSchema,
});
export type RankInfo = z.infer<typeof rankInfoSchema>;

export const RANK_TABLE: Record<Rank, RankInfo> = {
  member: {
    name: 'Member',
    emoji: '👤',
    permissions: {
      admin_access: false,
      manage_credits: false,
      change_rank: false,
      delete_scans: false,
    },
  },
  support: {
    name: 'Support',
    emoji: '🛟',
    permissions: {
      admin_access: true,
      manage_credits: false,
      change_rank: false,
      delete_scans: false,
    },
  },
  administrator: {
    name: 'Administrator',
    emoji: '🛡️',
    permissions: {
      admin_access: true,
      manage_credits: true,
      change_rank: false,
      delete_scans: true,
    },
  },
  super_admin: {
    name: 'Super Administrator',
    emoji: '👑',
    permissions: {
      admin_access: true,
      manage_credits: true,
      change_rank: true,
      delete_scans: true,
    },
  },
};

export function hasPermission(rank: Rank, permission: Permission): boolean {
  return RANK_TABLE[rank].permissions[permission];
}
