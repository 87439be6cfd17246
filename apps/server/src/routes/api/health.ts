// GET /api/health: the process answers, the database answers, and how busy the queue is.
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@sentinelle/contracts';
import { queueCounts } from '../../services/scans.js';
import { errorResponses } from './errorResponses.js';

const VERSION = '0.1.0';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['health'],
        response: { 200: healthResponseSchema, 500: errorResponses[500] },
      },
    },
    async () => {
      await sql`select 1`.execute(app.db);
      return {
        status: 'ok' as const,
        version: VERSION,
        database: 'ok' as const,
        queue: await queueCounts(app.db),
      };
    },
  );
};

export default healthRoutes;
