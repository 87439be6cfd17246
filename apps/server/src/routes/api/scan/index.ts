// /api/scan: upload an archive to scan (credits taken on acceptance), follow its status,
// read its result, cancel it. Signed-in members only; a member sees only their own scans.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SCAN_COST,
  languageQuerySchema,
  scanAcceptedResponseSchema,
  scanCancelResponseSchema,
  scanIdParamsSchema,
  scanResultResponseSchema,
  scanStatusResponseSchema,
} from '@sentinelle/contracts';
import { ApiProblem } from '../../../errors/apiProblem.js';
import { requestLanguage } from '../../../errors/language.js';
import { MESSAGES, localise, type MessageKey } from '../../../errors/messages.js';
import { requireMember } from '../../../plugins/auth.js';
import {
  acceptScan,
  assertCanPay,
  cancelScan,
  resultIn,
  scanOfOwner,
} from '../../../services/scans.js';
import { scanIsExpired } from '../../../services/retention.js';
import { fileTooLarge, receiveArchive } from '../../../uploads/archiveUpload.js';
import { errorResponses } from '../errorResponses.js';

/** Room for the multipart envelope around the file when judging Content-Length up front. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

const scanRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const signedIn = requireMember(app, 'scan_login_required');
  const bearer = [{ bearer: [] }];
  const scanRateLimit = {
    rateLimit: { max: config.uploadRateLimitPerMinute, timeWindow: '1 minute' },
  };

  app.post(
    '/',
    {
      preHandler: signedIn,
      config: scanRateLimit,
      schema: {
        tags: ['scan'],
        security: bearer,
        consumes: ['multipart/form-data'],
        response: { 202: scanAcceptedResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const member = request.member!;
      const cost = SCAN_COST.standard;
      // Refuse what we can before reading a possibly huge body.
      const declared = Number(request.headers['content-length'] ?? NaN);
      if (declared > config.maxUploadBytes + MULTIPART_OVERHEAD_BYTES)
        throw fileTooLarge(config.maxUploadBytes, declared);
      if (!request.isMultipart()) throw new ApiProblem('file_required', 400);
      await assertCanPay(app.db, member.id, cost);

      const scanId = randomUUID().replaceAll('-', '');
      const upload = await receiveArchive(request, {
        archivesDir: config.archivesDir,
        scanId,
        maxUploadBytes: config.maxUploadBytes,
      });
      try {
        await acceptScan(
          app.db,
          {
            scanId,
            userId: member.id,
            filename: upload.filename,
            fileSize: upload.size,
            scanType: 'standard',
            language: upload.language ?? requestLanguage(request),
            archivePath: upload.path,
            cost,
            retentionSeconds: config.scanRetentionSeconds,
          },
          app.clock(),
        );
      } catch (error) {
        await rm(upload.path, { force: true });
        throw error;
      }
      void app.scanQueue.kick();
      return reply.status(202).send({ scan_id: scanId });
    },
  );

  app.get(
    '/status/:id',
    {
      preHandler: signedIn,
      schema: {
        tags: ['scan'],
        security: bearer,
        params: scanIdParamsSchema,
        querystring: languageQuerySchema,
        response: { 200: scanStatusResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const scan = await scanOfOwner(app.db, request.params.id, request.member!.id);
      const errorKey =
        scan.error_code && scan.error_code in MESSAGES
          ? (scan.error_code as MessageKey)
          : 'analysis_failed';
      return {
        scan_id: scan.id,
        status: scan.status,
        ...(scan.status === 'failed'
          ? {
              error: localise(errorKey, requestLanguage(request), {
                seconds: Math.round(config.scanTimeoutMs / 1000),
              }),
            }
          : {}),
      };
    },
  );

  app.get(
    '/results/:id',
    {
      preHandler: signedIn,
      schema: {
        tags: ['scan'],
        security: bearer,
        params: scanIdParamsSchema,
        querystring: languageQuerySchema,
        response: { 200: scanResultResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const scan = await scanOfOwner(app.db, request.params.id, request.member!.id);
      if (scanIsExpired(scan, app.clock())) throw new ApiProblem('scan_expired', 404);
      switch (scan.status) {
        case 'completed':
          return resultIn(scan, requestLanguage(request));
        case 'failed': {
          const key = scan.error_code === 'archive_corrupt' ? 'archive_corrupt' : 'analysis_failed';
          throw new ApiProblem(key, 409);
        }
        case 'cancelled':
          throw new ApiProblem('scan_not_finished', 409, { messageKey: 'scan_cancelled' });
        default:
          throw new ApiProblem('scan_not_finished', 409);
      }
    },
  );

  app.post(
    '/cancel/:id',
    {
      preHandler: signedIn,
      schema: {
        tags: ['scan'],
        security: bearer,
        params: scanIdParamsSchema,
        response: { 200: scanCancelResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const scan = await scanOfOwner(app.db, request.params.id, request.member!.id);
      if (!(await cancelScan(app.db, scan.id, app.clock())))
        throw new ApiProblem('scan_not_cancellable', 409);
      app.scanQueue.abort(scan.id);
      return { scan_id: scan.id, status: 'cancelled' as const };
    },
  );
};

export default scanRoutes;
