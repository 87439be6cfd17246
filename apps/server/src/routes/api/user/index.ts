// /api/user: the signed-in member's own scans (newest first, expired ones included as
// records) and the text report of one of them as a downloadable .txt file.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  languageQuerySchema,
  myScansResponseSchema,
  scanIdParamsSchema,
} from '@sentinelle/contracts';
import { renderTextReport } from '@sentinelle/scanner';
import { ApiProblem } from '../../../errors/apiProblem.js';
import { requestLanguage } from '../../../errors/language.js';
import { requireMember } from '../../../plugins/auth.js';
import { scanIsExpired } from '../../../services/retention.js';
import { resultIn, scanListItem, scanOfOwner } from '../../../services/scans.js';
import { errorResponses } from '../errorResponses.js';

/** The list a member gets is capped (newest first); older records stay in the database. */
export const MY_SCANS_LIMIT = 1000;

/** `{name}_result.txt` with name = the archive's name without .zip (spec §9). */
export function reportFilename(archiveName: string): string {
  const name = archiveName.replace(/\.zip$/i, '') || 'scan';
  return `${name}_result.txt`;
}

/** RFC 6266: an ASCII fallback plus the exact UTF-8 name. */
export function attachmentHeader(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const signedIn = requireMember(app);
  const bearer = [{ bearer: [] }];

  app.get(
    '/my-scans',
    {
      preHandler: signedIn,
      schema: {
        tags: ['user'],
        security: bearer,
        response: { 200: myScansResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const member = request.member!;
      const rows = await app.db
        .selectFrom('scans')
        .select([
          'id',
          'filename',
          'score',
          'scan_type',
          'status',
          'created_at',
          'completed_at',
          'file_size',
          'threat_count',
          'expires_at',
        ])
        .where('user_id', '=', member.id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(MY_SCANS_LIMIT)
        .execute();
      const scans = rows.map((row) => scanListItem(row, member.steam_id));
      return { scans };
    },
  );

  app.get(
    '/my-scans/result/:id',
    {
      preHandler: signedIn,
      schema: {
        tags: ['user'],
        security: bearer,
        params: scanIdParamsSchema,
        querystring: languageQuerySchema,
        produces: ['text/plain'],
        response: {
          200: z.string().describe('The text report, as a {name}_result.txt attachment'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const scan = await scanOfOwner(app.db, request.params.id, request.member!.id);
      if (scanIsExpired(scan, app.clock())) throw new ApiProblem('scan_expired', 404);
      if (scan.status === 'failed') throw new ApiProblem('analysis_failed', 409);
      if (scan.status !== 'completed' || scan.result_json === null) {
        throw new ApiProblem('scan_not_finished', 409);
      }
      const language = requestLanguage(request);
      const text = renderTextReport(resultIn(scan, language), language);
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', attachmentHeader(reportFilename(scan.filename)))
        .header('cache-control', 'no-store')
        .send(text);
    },
  );
};

export default userRoutes;
