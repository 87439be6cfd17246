// Server configuration read from environment variables, with the documented defaults of the
// README. buildApp() takes a Config so tests can build one without touching process.env.
import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_STARTING_CREDITS,
  MAX_UPLOAD_BYTES,
  SESSION_INACTIVITY_SECONDS,
} from '@sentinelle/contracts';
import { REPO_ROOT, WEB_DIST_DIR } from './paths.js';
import { DEMO_SUPER_ADMIN } from './auth/demoAccounts.js';

export const STEAM_OPENID_ENDPOINT = 'https://steamcommunity.com/openid/login';
export const STEAM_OPENID_ID_PREFIX = 'https://steamcommunity.com/openid/id/';
export const STEAM_API_URL = 'https://api.steampowered.com';

/** Path of the built-in demo provider under our own origin. */
export const DEMO_STEAM_PREFIX = '/demo-steam';

export interface SteamConfig {
  /** Where the browser is sent to sign in and where check_authentication is POSTed. */
  openIdEndpoint: string;
  /** claimed_id must be this prefix followed by the SteamID64. */
  idPrefix: string;
  apiUrl: string;
  apiKey: string | null;
  /** True when the endpoint is the built-in demo provider served by this server. */
  demo: boolean;
}

export interface Config {
  port: number;
  host: string;
  nodeEnv: string;
  dataDir: string;
  archivesDir: string;
  databaseUrl: string;
  publicUrl: string;
  steam: SteamConfig;
  superAdmins: string[];
  startingCredits: number;
  maxUploadBytes: number;
  scanWorkers: number;
  /** The scanner's budget per archive; over it the scan fails and is refunded. */
  scanTimeoutMs: number;
  sessionInactivitySeconds: number;
  /** Signs the short-lived OpenID state cookie. */
  cookieSecret: string;
  webDistDir: string;
  /** Requests per minute and client IP, all routes together. */
  rateLimitPerMinute: number;
  /** Tighter limits for the sign-in calls and for uploads (per minute and IP). */
  authRateLimitPerMinute: number;
  uploadRateLimitPerMinute: number;
  trustProxy: boolean;
  logLevel: string;
  /** JS entry of the scan worker; defaults to the built one beside the pool. */
  scanWorkerEntry?: URL;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer ≥ ${min} (got "${raw}")`);
  }
  return value;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Relative paths given by the operator are taken from the working directory; defaults from the repo. */
function dirFrom(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (!raw) return fallback;
  return isAbsolute(raw) ? raw : resolve(process.cwd(), raw);
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0);
  const nodeEnv = env.NODE_ENV ?? 'development';
  const dataDir = dirFrom(env, 'DATA_DIR', resolve(REPO_ROOT, 'data'));
  const publicUrl = trimSlash(env.PUBLIC_URL || `http://localhost:${port}`);
  const configuredEndpoint = env.STEAM_OPENID_ENDPOINT?.trim();
  // No Steam configuration: outside production the built-in demo provider stands in, so a
  // machine with no internet can still sign in; in production the real Steam is the default.
  const demo = configuredEndpoint === 'demo' || (!configuredEndpoint && nodeEnv !== 'production');
  if (demo && nodeEnv === 'production') {
    throw new Error(
      'The demo Steam provider is refused when NODE_ENV=production: set STEAM_OPENID_ENDPOINT.',
    );
  }
  const steam: SteamConfig = demo
    ? {
        openIdEndpoint: `${publicUrl}${DEMO_STEAM_PREFIX}/openid/login`,
        idPrefix: `${publicUrl}${DEMO_STEAM_PREFIX}/openid/id/`,
        apiUrl: trimSlash(env.STEAM_API_URL || `${publicUrl}${DEMO_STEAM_PREFIX}/api`),
        apiKey: env.STEAM_API_KEY || 'demo',
        demo: true,
      }
    : {
        openIdEndpoint: configuredEndpoint || STEAM_OPENID_ENDPOINT,
        idPrefix: env.STEAM_OPENID_ID_PREFIX || STEAM_OPENID_ID_PREFIX,
        apiUrl: trimSlash(env.STEAM_API_URL || STEAM_API_URL),
        apiKey: env.STEAM_API_KEY || null,
        demo: false,
      };
  const listed = (env.SENTINELLE_SUPER_ADMINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const id of listed) {
    if (!/^7656119\d{10}$/.test(id))
      throw new Error(`SENTINELLE_SUPER_ADMINS: "${id}" is not a SteamID64`);
  }
  // In the demo, one demo account shows the staff side unless the operator chose admins.
  const superAdmins = listed.length > 0 ? listed : demo ? [DEMO_SUPER_ADMIN] : [];
  return {
    port,
    host: env.HOST || '0.0.0.0',
    nodeEnv,
    dataDir,
    archivesDir: resolve(dataDir, 'archives'),
    databaseUrl: env.DATABASE_URL || `file:${resolve(dataDir, 'sentinelle.db')}`,
    publicUrl,
    steam,
    superAdmins,
    startingCredits: integer(env, 'STARTING_CREDITS', DEFAULT_STARTING_CREDITS),
    maxUploadBytes: integer(env, 'MAX_UPLOAD_BYTES', MAX_UPLOAD_BYTES, 1),
    scanWorkers: integer(env, 'SCAN_WORKERS', availableParallelism(), 1),
    scanTimeoutMs: integer(env, 'SCAN_TIMEOUT_MS', 60_000, 1),
    sessionInactivitySeconds: integer(
      env,
      'SESSION_INACTIVITY_SECONDS',
      SESSION_INACTIVITY_SECONDS,
      1,
    ),
    cookieSecret: env.COOKIE_SECRET || randomBytes(32).toString('base64url'),
    webDistDir: dirFrom(env, 'WEB_DIST_DIR', WEB_DIST_DIR),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 1),
    authRateLimitPerMinute: integer(env, 'AUTH_RATE_LIMIT_PER_MINUTE', 60, 1),
    uploadRateLimitPerMinute: integer(env, 'UPLOAD_RATE_LIMIT_PER_MINUTE', 30, 1),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    logLevel: env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info'),
  };
}

/** Path of the SQLite file a DATABASE_URL names (`file:…`, `sqlite:…` or a plain path). */
export function sqlitePathOf(databaseUrl: string): string {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error(
      'PostgreSQL (DATABASE_URL=postgres://…) is not supported yet by this build; use a SQLite file.',
    );
  }
  const path = databaseUrl.replace(/^(file|sqlite):(\/\/)?/, '');
  if (path === ':memory:') return path;
  return isAbsolute(path) ? path : resolve(process.cwd(), path);
}
