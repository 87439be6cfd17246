// GET /api/ranks: the four ranks with their names, emojis and permissions (staff only).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RANK_TABLE, ranksResponseSchema } from '@sentinelle/contracts';
import { requireStaff } from '../../../plugins/staffAuth.js';
import { errorResponses } from '../errorResponses.js';

const rankRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/',
    {
      onRequest: requireStaff(app),
      schema: {
        tags: ['members'],
        security: [{ bearer: [] }],
        response: { 200: ranksResponseSchema, ...errorResponses },
      },
    },
    async () => ({ ranks: RANK_TABLE }),
  );
};

export default rankRoutes;
