// Every migration in order; applied at start by migrateToLatest().
import type { Migration } from 'kysely';
import { initial } from './001_initial.js';
import { staffBackoffice } from './002_staff_backoffice.js';
import { memberOperations } from './003_member_operations.js';

export const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '002_staff_backoffice': staffBackoffice,
  '003_member_operations': memberOperations,
};
