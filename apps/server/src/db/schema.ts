// Row types of every table, as Kysely sees them. Times are ISO-8601 UTC strings (they sort
// and compare as text, and map to timestamptz when PostgreSQL arrives).
import type { Generated } from 'kysely';
import type {
  CreditTransactionType,
  Language,
  NotificationType,
  Rank,
  ReportCategory,
  ReportStatus,
  ScanStatus,
  ScanType,
} from '@sentinelle/contracts';

export interface UsersTable {
  id: Generated<number>;
  steam_id: string;
  username: string;
  personaname: string;
  avatar: string;
  avatar_medium: string;
  avatar_full: string;
  profile_url: string;
  rank: Rank;
  xp: number;
  first_login: string;
  last_login: string;
  /** Local date (CREDIT_RESET_TZ) of the last daily credit reset applied; null before the first. */
  credits_reset_period: Generated<string | null>;
}

export interface SessionsTable {
  id: Generated<number>;
  /** sha256 hex of the opaque token: a stolen database does not yield usable tokens. */
  token_hash: string;
  user_id: number;
  created_at: string;
  last_activity: string;
  /** last_activity + the inactivity limit; moved forward on each authenticated call. */
  expires_at: string;
  revoked_at: string | null;
}

export interface LoginTicketsTable {
  ticket_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OpenIdNoncesTable {
  /** op_endpoint + ' ' + response_nonce: unique, so a replay fails across instances too. */
  nonce_key: string;
  nonce_time: string;
  created_at: string;
}

export interface ScansTable {
  id: string;
  user_id: number | null;
  filename: string;
  file_size: number;
  status: ScanStatus;
  scan_type: ScanType;
  language: Language;
  archive_path: string;
  /** Credits taken when the scan was accepted (refunded on failure or cancel). */
  cost: number;
  result_json: string | null;
  score: number | null;
  threat_count: number;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  expires_at: string;
  /** When the retention sweeper deleted the archive and the result (the row stays as a record). */
  purged_at: Generated<string | null>;
}

export interface CreditTransactionsTable {
  id: Generated<number>;
  user_id: number;
  type: CreditTransactionType;
  /** Signed: a spend or a removal is negative. The balance is always the sum. */
  amount: number;
  message: string;
  scan_id: string | null;
  /** Who made an admin_add/admin_remove/reset (null for the system). */
  actor_user_id: number | null;
  /** Set instead of actor_user_id when the change came from a staff username/password account. */
  actor_staff_account_id: Generated<number | null>;
  created_at: string;
}

export interface StaffAccountsTable {
  id: Generated<number>;
  /** Unique without regard to case. */
  username: string;
  /** `scrypt$N$r$p$salt$hash` (base64url), see services/passwords.ts. */
  password_hash: string;
  rank: Rank;
  created_at: string;
  last_login: string | null;
}

export interface StaffSessionsTable {
  id: Generated<number>;
  token_hash: string;
  staff_account_id: number;
  created_at: string;
  last_activity: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface ReportsTable {
  id: string;
  category: ReportCategory;
  status: ReportStatus;
  message: string;
  author_user_id: number | null;
  /** Copied at sending time: the report keeps its author even if the member goes. */
  author_steamid: string;
  author_username: string;
  language: Language;
  scan_id: string;
  filename: string;
  managed_by: string | null;
  managed_by_steamid: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationsTable {
  id: string;
  type: NotificationType;
  steam_id: string;
  steam_username: string;
  scan_id: string;
  category: string;
  created_at: string;
}

export interface NotificationStatesTable {
  notification_id: string;
  /** 'member:<users.id>' or 'staff:<staff_accounts.id>'. */
  reader: string;
  read_at: string | null;
  deleted_at: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_tickets: LoginTicketsTable;
  openid_nonces: OpenIdNoncesTable;
  scans: ScansTable;
  credit_transactions: CreditTransactionsTable;
  staff_accounts: StaffAccountsTable;
  staff_sessions: StaffSessionsTable;
  reports: ReportsTable;
  notifications: NotificationsTable;
  notification_states: NotificationStatesTable;
}
