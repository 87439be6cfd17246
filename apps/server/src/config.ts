// Server configuration read from environment variables, with the documented defaults of the
// README. buildApp() takes a Config so tests can build one without touching process.env.
import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  DEFAULT_DAILY_CREDITS,
  DEFAULT_STARTING_CREDITS,
  MAX_UPLOAD_BYTES,
  SCAN_RETENTION_SECONDS,
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
  /** Credits a member is topped up to at each daily reset. */
  dailyCredits: number;
  /** Local wall-clock time of the daily reset, HH:MM, in creditResetTimeZone. */
  creditResetTime: string;
  /** IANA time zone of the reset time (DST handled through Intl). */
  creditResetTimeZone: string;
  /** How long a scan's archive and result are kept after upload. */
  scanRetentionSeconds: number;
  /** Period of the maintenance job (credit resets, retention sweep). */
  maintenanceIntervalMs: number;
  /** On SIGTERM/SIGINT, running scans get this long to finish before going back to the queue. */
  shutdownGraceMs: number;
  /** Problem reports per minute and IP. */
  reportRateLimitPerMinute: number;
  /** Largest JSON (or other non-multipart) request body. */
  jsonBodyLimitBytes: number;
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

function resetTime(env: Env): string {
  const raw = (env.CREDIT_RESET_TIME ?? '').trim() || '00:00';
  const match = /^(\d{1,2}):(\d{2})$/.exec(raw);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59)
    throw new Error(`CREDIT_RESET_TIME must be HH:MM (got "${raw}")`);
  return `${match[1]!.padStart(2, '0')}:${match[2]}`;
}

function timeZone(env: Env): string {
  const raw = (env.CREDIT_RESET_TZ ?? '').trim() || 'Europe/Paris';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: raw });
  } catch {
    throw new Error(
      `CREDIT_RESET_TZ must be an IANA time zone such as Europe/Paris (got "${raw}")`,
    );
  }
  return raw;
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
    dailyCredits: integer(env, 'DAILY_CREDITS', DEFAULT_DAILY_CREDITS),
    creditResetTime: resetTime(env),
    creditResetTimeZone: timeZone(env),
    scanRetentionSeconds: integer(env, 'SCAN_RETENTION_SECONDS', SCAN_RETENTION_SECONDS, 1),
    maintenanceIntervalMs: integer(env, 'MAINTENANCE_INTERVAL_MS', 60_000, 1_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0),
    reportRateLimitPerMinute: integer(env, 'REPORT_RATE_LIMIT_PER_MINUTE', 10, 1),
    jsonBodyLimitBytes: integer(env, 'JSON_BODY_LIMIT_BYTES', 64 * 1024, 1_024),
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
