// Business constants of spec §9, in one place so the server enforces the same numbers the
// web app shows.

export const SCAN_COST = { standard: 2, ia: 4 } as const;
export const XP_PER_SCAN = 2;
/** Scans (result and original archive) are kept this long after upload. */
export const SCAN_RETENTION_SECONDS = 48 * 60 * 60;
/** The spec's client-side upload limit: 1 GB (1024 MB). */
export const MAX_UPLOAD_BYTES = 1_073_741_824;
export const STATUS_POLL_INTERVAL_MS = 2_000;
export const PROGRESS_ESTIMATE_SECONDS = { standard: 100, ia: 180 } as const;
export const PROGRESS_ESTIMATE_CAP_PERCENT = 90;
export const SESSION_INACTIVITY_SECONDS = 1_800;
export const SESSION_ACTIVITY_CHECK_MS = 60_000;
export const CREDITS_REFRESH_MS = 30_000;
export const UNREAD_COUNT_POLL_MS = 30_000;
export const UNREAD_BADGE_CAP = 99;
export const PAGE_SIZE_INITIAL = 6;
export const PAGE_SIZE = 21;
export const LOAD_MORE_LABEL_CAP = 14;
export const REPORT_MESSAGE_MAX = 500;
export const REPORT_MESSAGE_TOGGLE_ABOVE = 300;
export const ONLINE_THRESHOLD_SECONDS = 30 * 60;
export const CONFIRMATION_WINDOW_MS = 3_000;
export const TOAST_MS = {
  short: 3_000,
  default: 5_000,
  successBanner: 10_000,
  notification: 5_000,
} as const;
export const HEADER_HIDE_SCROLL_PX = 50;
export const SCROLL_TO_TOP_PX = 300;
export const AUTH_SUCCESS_LOADING_MS = 2_000;
export const AUTH_SUCCESS_REDIRECT_SECONDS = 3;
export const UPLOAD_MESSAGE_HIDE_MS = 5_000;
/** The single-use ticket handed to /auth/success expires this fast. */
export const LOGIN_TICKET_TTL_SECONDS = 60;
export const DEFAULT_STARTING_CREDITS = 10;
export const DEFAULT_DAILY_CREDITS = 10;

export const PARTNER_FIGURES = {
  slots: 128,
  uptimePercent: 99.8,
  version: '1.4',
  rating: 4.8,
  pingUnderMs: 18,
} as const;

export const ANALYSIS_TYPES = {
  standard: { minSeconds: 1, maxSeconds: 60, reliabilityPercent: 89.6, available: true },
  ia: { minSeconds: 60, maxSeconds: 180, reliabilityPercent: 98.4, available: false },
} as const;

/** Local-storage keys of spec §3 "Local preferences". */
export const STORAGE_KEYS = {
  darkMode: 'darkMode',
  language: 'language',
  steamToken: 'steamToken',
  lastActivity: 'lastActivity',
  adminToken: 'adminToken',
} as const;
