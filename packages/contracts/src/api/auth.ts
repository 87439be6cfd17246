// Calls of spec §7 "Authentication".
import { z } from 'zod';
import { userSchema } from '../entities/user.js';

export const loginUrlResponseSchema = z.object({ login_url: z.string() });
export const sessionRequestSchema = z.object({ token: z.string().min(1).max(256) });
export const accessTokenResponseSchema = z.object({ access_token: z.string() });
export const meResponseSchema = userSchema;
export const logoutResponseSchema = z.object({ success: z.literal(true) });
export const adminLoginRequestSchema = z.object({
  username: z.string().min(1).max(64),
  password: z.string().min(1).max(1024),
});
