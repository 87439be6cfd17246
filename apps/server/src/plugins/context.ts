// What buildApp() hangs on the Fastify instance for plugins, routes and services.
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { ScanQueue } from '../jobs/scanQueue.js';
import type { Maintenance } from '../jobs/maintenance.js';
import type { CreditResets } from '../services/creditReset.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    scanQueue: ScanQueue;
    /** Milliseconds since the epoch; tests move it. */
    clock: () => number;
    creditResets: CreditResets;
    maintenance: Maintenance;
  }
}
