// What buildApp() hangs on the Fastify instance for plugins, routes and services.
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { ScanQueue } from '../jobs/scanQueue.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    scanQueue: ScanQueue;
  }
}
