// Row types of every table, as Kysely sees them. Times are ISO-8601 UTC strings (they sort
// and compare as text, and map to timestamptz when PostgreSQL arrives).
import type { Generated } from 'kysely';
import type {
  CreditTransactionType,
  Language,
  Rank,
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
  created_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_tickets: LoginTicketsTable;
  openid_nonces: OpenIdNoncesTable;
  scans: ScansTable;
  credit_transactions: CreditTransactionsTable;
}
