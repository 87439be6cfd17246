// POST /api/report-problem: a signed-in member reports a false positive, a missed threat…
// about a scan. The spec §5 form rules are answered with their own localised messages
// ("This field is required", the 500-character limit) rather than a generic failure.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  REPORT_MESSAGE_MAX,
  problemReportRequestSchema,
  problemReportResponseSchema,
} from '@sentinelle/contracts';
import { ApiProblem } from '../../../errors/apiProblem.js';
import { requireMember } from '../../../plugins/auth.js';
import { createReport, reportCategoryOf } from '../../../services/reports.js';
import { errorResponses } from '../errorResponses.js';

/** The first problem of a refused report form, as the form shows it. */
function formProblem(body: unknown): ApiProblem {
  const parsed = problemReportRequestSchema.strict().safeParse(body ?? {});
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  if (field === 'message' && issue?.message === 'too_long') {
    return new ApiProblem('validation_failed', 400, {
      messageKey: 'message_too_long',
      details: { field, max: REPORT_MESSAGE_MAX },
    });
  }
  if (field === 'category' || field === 'message') {
    return new ApiProblem('validation_failed', 400, {
      messageKey: 'field_required',
      details: { field },
    });
  }
  return new ApiProblem('validation_failed', 400, {
    details: { field, issues: parsed.success ? [] : parsed.error.issues.map((i) => i.message) },
  });
}

const reportProblemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/',
    {
      preHandler: requireMember(app, 'report_login_required'),
      attachValidation: true,
      config: {
        rateLimit: { max: app.config.reportRateLimitPerMinute, timeWindow: '1 minute' },
      },
      schema: {
        tags: ['reports'],
        security: [{ bearer: [] }],
        body: problemReportRequestSchema,
        response: { 201: problemReportResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (request.validationError) throw formProblem(request.body);
      const body = request.body;
      const category = reportCategoryOf(body.category);
      if (!category) {
        throw new ApiProblem('validation_failed', 400, {
          messageKey: 'unknown_category',
          details: { field: 'category' },
        });
      }
      const report = await createReport(app.db, request.member!, {
        category,
        message: body.message.trim(),
        fileName: body.file_name,
        scanId: body.scan_id,
        language: body.language,
      });
      return reply.status(201).send({ success: true as const, id: report.id });
    },
  );
};

export default reportProblemRoutes;
