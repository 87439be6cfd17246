// /api/credits: the signed-in member's credit overview and the (not yet available) purchase.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiErrorSchema,
  languageQuerySchema,
  myCreditsResponseSchema,
} from '@sentinelle/contracts';
import { ApiProblem } from '../../../errors/apiProblem.js';
import { requestLanguage } from '../../../errors/language.js';
import { requireMember } from '../../../plugins/auth.js';
import { creditsInfo } from '../../../services/creditHistory.js';
import { errorResponses } from '../errorResponses.js';

const creditRoutes: FastifyPluginAsyncZod = async (app) => {
  const signedIn = requireMember(app);
  const bearer = [{ bearer: [] }];

  app.get(
    '/my-credits',
    {
      preHandler: signedIn,
      schema: {
        tags: ['credits'],
        security: bearer,
        querystring: languageQuerySchema,
        response: { 200: myCreditsResponseSchema, ...errorResponses },
      },
    },
    async (request) =>
      creditsInfo(
        app.db,
        app.creditResets,
        request.member!.id,
        requestLanguage(request),
        app.clock(),
      ),
  );

  // Buying credits is not offered yet (the spec shows the button disabled): a signed-in
  // member gets a stable code and a localised message, and nothing is written.
  app.post(
    '/add-credits',
    {
      preHandler: signedIn,
      schema: {
        tags: ['credits'],
        security: bearer,
        querystring: languageQuerySchema,
        // No fields: an empty or absent body only.
        body: z.object({}).nullish(),
        response: { ...errorResponses, 501: apiErrorSchema },
      },
    },
    async () => {
      throw new ApiProblem('purchase_unavailable', 501);
    },
  );
};

export default creditRoutes;
