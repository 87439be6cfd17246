// /api/members: the staff view of members (search, totals) and the credit and rank editors.
// Every call needs admin_access; editing credits needs manage_credits, ranks change_rank.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  memberStatsResponseSchema,
  membersQuerySchema,
  membersResponseSchema,
  rankChangeBodySchema,
  setCreditsRequestSchema,
  setCreditsResponseSchema,
  setRankResponseSchema,
  steamIdParamsSchema,
} from '@sentinelle/contracts';
import { requireStaff } from '../../../plugins/staffAuth.js';
import {
  memberStats,
  searchMembers,
  setMemberCredits,
  setMemberRank,
} from '../../../services/memberDirectory.js';
import { errorResponses } from '../errorResponses.js';

const memberRoutes: FastifyPluginAsyncZod = async (app) => {
  const security = [{ bearer: [] }];
  const tags = ['members'];

  app.get(
    '/',
    {
      onRequest: requireStaff(app),
      schema: {
        tags,
        security,
        querystring: membersQuerySchema,
        response: { 200: membersResponseSchema, ...errorResponses },
      },
    },
    async (request) => searchMembers(app.db, request.query.search),
  );

  app.get(
    '/stats',
    {
      onRequest: requireStaff(app),
      schema: { tags, security, response: { 200: memberStatsResponseSchema, ...errorResponses } },
    },
    async () => memberStats(app.db),
  );

  app.put(
    '/:steam_id/credits',
    {
      onRequest: requireStaff(app, 'manage_credits'),
      schema: {
        tags,
        security,
        params: steamIdParamsSchema,
        body: setCreditsRequestSchema,
        response: { 200: setCreditsResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { steam_id } = request.params;
      const credits = await setMemberCredits(
        app.db,
        steam_id,
        request.body.credits,
        request.actor!,
      );
      return { steam_id, credits };
    },
  );

  app.put(
    '/:steam_id/rank',
    {
      onRequest: requireStaff(app, 'change_rank'),
      schema: {
        tags,
        security,
        params: steamIdParamsSchema,
        body: rankChangeBodySchema,
        response: { 200: setRankResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { steam_id } = request.params;
      const rank = await setMemberRank(app.db, steam_id, request.body.rank, request.actor!);
      return { steam_id, rank };
    },
  );
};

export default memberRoutes;
