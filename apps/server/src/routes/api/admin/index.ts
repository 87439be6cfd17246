// /api/admin: the staff username/password login, the scan history (list, totals, kept
// archives, delete, original archive download, text result) and the problem reports.
// Everything but the login needs admin_access; stricter calls say what more they need.
import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  accessTokenResponseSchema,
  adminFilesResponseSchema,
  adminLoginRequestSchema,
  adminScanStatsResponseSchema,
  adminScansResponseSchema,
  deleteScanResponseSchema,
  filenameParamsSchema,
  languageQuerySchema,
  okResponseSchema,
  reportIdParamsSchema,
  reportStatsResponseSchema,
  reportsResponseSchema,
  scanIdAdminParamsSchema,
  scanResultSchema,
  setReportStatusRequestSchema,
  setReportStatusResponseSchema,
} from '@sentinelle/contracts';
import { renderTextReport } from '@sentinelle/scanner';
import { ApiProblem } from '../../../errors/apiProblem.js';
import { requestLanguage } from '../../../errors/language.js';
import { requireStaff } from '../../../plugins/staffAuth.js';
import {
  allScans,
  attachment,
  deleteScanForGood,
  keptArchiveOf,
  keptArchives,
  resultFileName,
  scanForDownload,
  scanStats,
} from '../../../services/adminScans.js';
import {
  deleteReport,
  listReports,
  reportStats,
  setReportStatus,
} from '../../../services/reports.js';
import { scanIsExpired } from '../../../services/retention.js';
import { staffLogin } from '../../../services/staffAccounts.js';
import { errorResponses } from '../errorResponses.js';

/** File answers are not JSON: these only document them (Fastify does not serialise them). */
const archiveFile = z.unknown().describe('The original ZIP archive (application/zip)');
const textReport = z.string().describe('The text report, saved as {name}_result.txt');

const scanNotFound = () => new ApiProblem('not_found', 404, { messageKey: 'scan_not_found' });
const reportNotFound = () => new ApiProblem('not_found', 404, { messageKey: 'report_not_found' });

/** The login form arrives as multipart (spec §5); a JSON body is accepted too. */
async function loginFields(request: FastifyRequest): Promise<unknown> {
  if (!request.isMultipart()) return request.body;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        // A file has no place in a login form: read it to the end and forget it.
        part.file.resume();
        await new Promise((resolve) => part.file.once('end', resolve));
        continue;
      }
      if (part.fieldname !== 'username' && part.fieldname !== 'password') continue;
      // A truncated value would be a different password: refuse rather than compare it.
      if (part.valueTruncated) return null;
      fields[part.fieldname] = String(part.value);
    }
  } catch {
    throw new ApiProblem('validation_failed', 400, {
      details: { reason: 'malformed multipart body' },
    });
  }
  return fields;
}

const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const security = [{ bearer: [] }];
  const staff = requireStaff(app);

  app.post(
    '/login',
    {
      config: { rateLimit: { max: config.authRateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        consumes: ['multipart/form-data', 'application/json'],
        response: { 200: accessTokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const parsed = adminLoginRequestSchema.safeParse(await loginFields(request));
      // Missing or malformed fields get the same answer as wrong ones: the form has one message.
      if (!parsed.success) throw new ApiProblem('invalid_credentials', 401);
      const token = await staffLogin(
        app.db,
        parsed.data.username,
        parsed.data.password,
        config.sessionInactivitySeconds,
      );
      if (!token) throw new ApiProblem('invalid_credentials', 401);
      return { access_token: token };
    },
  );

  app.get(
    '/scans',
    {
      onRequest: staff,
      schema: {
        tags: ['admin'],
        security,
        response: { 200: adminScansResponseSchema, ...errorResponses },
      },
    },
    async () => ({ scans: await allScans(app.db) }),
  );

  app.get(
    '/scan-stats',
    {
      onRequest: staff,
      schema: {
        tags: ['admin'],
        security,
        response: { 200: adminScanStatsResponseSchema, ...errorResponses },
      },
    },
    async () => scanStats(app.db),
  );

  app.get(
    '/files',
    {
      onRequest: staff,
      schema: {
        tags: ['admin'],
        security,
        response: { 200: adminFilesResponseSchema, ...errorResponses },
      },
    },
    async () => ({ files: await keptArchives(app.db, config.archivesDir) }),
  );

  app.delete(
    '/delete-scan/:scan_id',
    {
      onRequest: requireStaff(app, 'delete_scans'),
      schema: {
        tags: ['admin'],
        security,
        params: scanIdAdminParamsSchema,
        response: { 200: deleteScanResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { scan_id } = request.params;
      // A running worker is stopped first; its late result then finds no row to write to.
      app.scanQueue.abort(scan_id);
      if (!(await deleteScanForGood(app.db, config.archivesDir, scan_id))) throw scanNotFound();
      return { success: true as const, scan_id };
    },
  );

  app.get(
    '/download/:filename',
    {
      onRequest: requireStaff(app, 'super_admin'),
      schema: {
        tags: ['admin'],
        security,
        params: filenameParamsSchema,
        produces: ['application/zip'],
        response: { 200: archiveFile, ...errorResponses },
      },
    },
    async (request, reply) => {
      const scan = await scanForDownload(app.db, request.params.filename);
      if (!scan) throw scanNotFound();
      const archive = await keptArchiveOf(config.archivesDir, scan, app.clock());
      if (!archive) throw new ApiProblem('not_found', 404, { messageKey: 'archive_not_found' });
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', archive.size)
        .header('content-disposition', attachment(scan.filename))
        .header('cache-control', 'no-store')
        .send(createReadStream(archive.path));
    },
  );

  app.get(
    '/result/:scan_id',
    {
      onRequest: staff,
      schema: {
        tags: ['admin'],
        security,
        params: scanIdAdminParamsSchema,
        querystring: languageQuerySchema,
        produces: ['text/plain'],
        response: { 200: textReport, ...errorResponses },
      },
    },
    async (request, reply) => {
      const scan = await app.db
        .selectFrom('scans')
        .selectAll()
        .where('id', '=', request.params.scan_id)
        .executeTakeFirst();
      if (!scan) throw scanNotFound();
      if (scanIsExpired(scan, app.clock())) throw new ApiProblem('scan_expired', 404);
      if (scan.status === 'failed') throw new ApiProblem('analysis_failed', 409);
      if (scan.status !== 'completed' || !scan.result_json)
        throw new ApiProblem('scan_not_finished', 409);
      const result = scanResultSchema.parse(JSON.parse(scan.result_json));
      return reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', attachment(resultFileName(scan.filename)))
        .header('cache-control', 'no-store')
        .send(renderTextReport(result, requestLanguage(request)));
    },
  );

  app.get(
    '/reports',
    {
      onRequest: staff,
      schema: {
        tags: ['reports'],
        security,
        response: { 200: reportsResponseSchema, ...errorResponses },
      },
    },
    async () => ({ reports: await listReports(app.db) }),
  );

  app.get(
    '/reports/stats',
    {
      onRequest: staff,
      schema: {
        tags: ['reports'],
        security,
        response: { 200: reportStatsResponseSchema, ...errorResponses },
      },
    },
    async () => reportStats(app.db),
  );

  app.put(
    '/reports/:id/status',
    {
      onRequest: staff,
      schema: {
        tags: ['reports'],
        security,
        params: reportIdParamsSchema,
        body: setReportStatusRequestSchema,
        response: { 200: setReportStatusResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      // managed_by and managed_by_steamid of the body are not trusted: the manager recorded
      // is whoever made this call.
      const actor = request.actor!;
      const report = await setReportStatus(app.db, request.params.id, request.body.status, {
        name: actor.name,
        steamId: actor.steamId,
      });
      if (!report) throw reportNotFound();
      return report;
    },
  );

  app.delete(
    '/reports/:id',
    {
      onRequest: requireStaff(app, 'super_admin'),
      schema: {
        tags: ['reports'],
        security,
        params: reportIdParamsSchema,
        response: { 200: okResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      if (!(await deleteReport(app.db, request.params.id))) throw reportNotFound();
      return { success: true as const };
    },
  );
};

export default adminRoutes;
