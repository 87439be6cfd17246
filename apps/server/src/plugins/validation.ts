// Request validation with the contracts' zod schemas. JSON bodies are strict: a field the
// contract does not name is a 400, not silently dropped (a typo'd field must not look accepted).
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

function strictBody(schema: unknown): unknown {
  if (schema instanceof z.ZodObject) return schema.strict();
  if (schema instanceof z.ZodOptional) return (strictBody(schema.unwrap()) as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return (strictBody(schema.unwrap()) as z.ZodType).nullable();
  return schema;
}

export const strictValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) =>
  validatorCompiler({
    ...route,
    schema: (route.httpPart === 'body' ? strictBody(route.schema) : route.schema) as z.ZodType,
  });
