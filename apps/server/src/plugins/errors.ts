// One JSON error shape for every failure (contracts' apiErrorSchema), with the message in
// the request's language; bad input is a 4xx, never a 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError } from '@sentinelle/contracts';
import { ApiProblem } from '../errors/apiProblem.js';
import { requestLanguage } from '../errors/language.js';
import { localise } from '../errors/messages.js';
import { shared } from './shared.js';

export function problemBody(request: FastifyRequest, problem: ApiProblem): ApiError {
  const message = localise(problem.messageKey, requestLanguage(request), problem.details);
  return {
    error: {
      code: problem.code,
      message,
      ...(problem.details ? { details: problem.details } : {}),
    },
    detail: message,
  };
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  problem: ApiProblem,
): FastifyReply {
  return reply
    .status(problem.statusCode)
    .type('application/json; charset=utf-8')
    .send(problemBody(request, problem));
}

function problemOf(error: FastifyError | Error): ApiProblem {
  if (error instanceof ApiProblem) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({ path: v.instancePath, message: v.message }));
    return new ApiProblem('validation_failed', 400, { details: { issues } });
  }
  const status = (error as FastifyError).statusCode;
  if (status === 429) return new ApiProblem('rate_limited', 429);
  if (status === 413) return new ApiProblem('payload_too_large', 413);
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiProblem('validation_failed', status, { details: { reason: error.message } });
  }
  return new ApiProblem('internal_error', 500);
}

export const errorHandling = shared(async function errorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const problem = problemOf(error);
    if (problem.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else if (!(error instanceof ApiProblem)) request.log.info({ err: error }, 'request refused');
    return sendProblem(request, reply, problem);
  });
});
