// Bad input, table-driven over every route of the OpenAPI document (so a new route is covered
// the day it appears): missing, wrongly typed, oversized and unknown fields, bad parameters,
// malformed bodies. Each answers 400 with a stable code and a message in the asked language,
// and nothing at all answers 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { apiErrorSchema, ERROR_CODES } from '@sentinelle/contracts';
import { MESSAGES, localise, type MessageKey } from '../../errors/messages.js';
import {
  MEMBER_A,
  MEMBER_B,
  signIn,
  startTestApp,
  type TestContext,
} from '../../testing/testApp.js';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
  nullable?: boolean;
}
interface Parameter {
  in: 'path' | 'query';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: { required: boolean; schema: JsonSchema } | null;
  multipart: boolean;
}

let ctx: TestContext;
let token: string;
let operations: Operation[];

/** A value the schema accepts, as small as possible (language fields ask for French). */
function sample(schema: JsonSchema, name = ''): unknown {
  if (schema.anyOf) return sample(schema.anyOf.find((s) => s.type !== 'null') ?? {}, name);
  if (schema.enum) return name === 'language' ? 'fr' : schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? [])
        value[key] = sample(schema.properties?.[key] ?? {}, key);
      if (schema.properties?.language) value.language = 'fr';
      return value;
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    default:
      if (schema.pattern?.includes('7656119')) return MEMBER_A;
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** A value of the wrong JSON type for the schema. */
function wrongType(schema: JsonSchema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum) return 'not-one-of-the-values';
  if (type === 'integer' || type === 'number') return 'twelve';
  if (type === 'boolean') return 'yes';
  if (type === 'object') return 42;
  if (type === 'array') return { not: 'a list' };
  return 12345;
}

function urlOf(op: Operation, params: Record<string, string> = {}, query = ''): string {
  let path = op.path;
  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    path = path.replace(
      `{${p.name}}`,
      encodeURIComponent(params[p.name] ?? String(sample(p.schema, p.name))),
    );
  }
  return query ? `${path}?${query}` : path;
}

function send(op: Operation, url: string, body?: { payload: string; type?: string }) {
  return ctx.app.inject({
    method: op.method.toUpperCase() as 'GET',
    url,
    headers: {
      authorization: `Bearer ${token}`,
      'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5',
      ...(body ? { 'content-type': body.type ?? 'application/json' } : {}),
    },
    ...(body ? { payload: body.payload } : {}),
  });
}

/** Never a 500; an error is the common JSON shape with a known code and the French message. */
function expectGoodError(
  response: LightMyRequestResponse,
  label: string,
  language: 'en' | 'fr' = 'fr',
): void {
  expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(500);
  if (response.statusCode < 400) return;
  const parsed = apiErrorSchema.safeParse(response.json());
  expect(parsed.success, `${label}: ${response.body}`).toBe(true);
  const { code, message, details } = parsed.data!.error;
  expect(ERROR_CODES).toContain(code);
  const key = (code in MESSAGES ? code : 'validation_failed') as MessageKey;
  if (!MESSAGES[key].fr.includes('{')) {
    // Messages may be chosen by a more specific key; any catalogue text of the language is right.
    const texts = Object.values(MESSAGES).map((m) => m[language]);
    expect(texts, `${label}: ${message}`).toContain(message);
  } else {
    expect(message, label).toBe(localise(key, language, details));
  }
}

function expect400(response: LightMyRequestResponse, label: string): void {
  expectGoodError(response, label);
  expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
  expect(apiErrorSchema.parse(response.json()).error.code, label).toBe('validation_failed');
}

beforeAll(async () => {
  ctx = await startTestApp({
    superAdmins: [MEMBER_B],
    rateLimitPerMinute: 1_000_000,
    authRateLimitPerMinute: 1_000_000,
    uploadRateLimitPerMinute: 1_000_000,
    reportRateLimitPerMinute: 1_000_000,
  });
  token = await signIn(ctx, MEMBER_B); // super_admin: every route gets past its guard
  const doc = ctx.app.swagger() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Parameter[];
          requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
          consumes?: string[];
        }
      >
    >;
  };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const json = op.requestBody?.content['application/json'];
      return {
        method,
        path,
        parameters: op.parameters ?? [],
        body: json ? { required: op.requestBody?.required ?? false, schema: json.schema } : null,
        multipart:
          Boolean(op.requestBody?.content['multipart/form-data']) ||
          (op.consumes ?? []).includes('multipart/form-data'),
      };
    }),
  );
});
afterAll(async () => {
  await ctx.close();
});

describe('bad input on every route', () => {
  it('finds the routes of both halves of the API in the OpenAPI document', () => {
    const paths = operations.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    for (const expected of [
      'GET /api/health',
      'POST /api/auth/session',
      'GET /api/user/my-scans',
      'GET /api/user/my-scans/result/{id}',
      'GET /api/credits/my-credits',
      'POST /api/credits/add-credits',
      'GET /api/scan/status/{id}',
    ]) {
      expect(paths).toContain(expected);
    }
    expect(operations.length).toBeGreaterThanOrEqual(20);
  });

  it('refuses missing, wrongly typed, oversized and unknown body fields with 400', async () => {
    let probes = 0;
    for (const op of operations.filter((o) => o.body)) {
      const schema = op.body!.schema;
      const label = `${op.method} ${op.path}`;
      const url = urlOf(op);
      const valid = sample(schema) as Record<string, unknown> | null;
      if (op.body!.required && (schema.required ?? []).length > 0) {
        expect400(await send(op, url, { payload: '{}' }), `${label} missing fields`);
        probes++;
      }
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const wrong = { ...(valid ?? {}), [name]: wrongType(property) };
        expect400(
          await send(op, url, { payload: JSON.stringify(wrong) }),
          `${label} ${name} wrong type`,
        );
        probes++;
        if (property.maxLength !== undefined) {
          const long = { ...(valid ?? {}), [name]: 'x'.repeat(property.maxLength + 1) };
          expect400(
            await send(op, url, { payload: JSON.stringify(long) }),
            `${label} ${name} too long`,
          );
          probes++;
        }
        if (property.maximum !== undefined) {
          const big = { ...(valid ?? {}), [name]: property.maximum + 1 };
          expect400(
            await send(op, url, { payload: JSON.stringify(big) }),
            `${label} ${name} too big`,
          );
          probes++;
        }
      }
      const unknown = await send(op, url, {
        payload: JSON.stringify({ ...(valid ?? {}), __unknown_field__: true }),
      });
      expect400(unknown, `${label} unknown field`);
      expect(unknown.body, `${label} unknown field is named`).toContain('__unknown_field__');
      expect400(await send(op, url, { payload: '{"broken": ' }), `${label} malformed JSON`);
      probes += 2;
    }
    expect(probes).toBeGreaterThan(15);
  });

  it('refuses bad path and query parameters with 400', async () => {
    let probes = 0;
    for (const op of operations) {
      const label = `${op.method} ${op.path}`;
      const body = op.body ? { payload: JSON.stringify(sample(op.body.schema)) } : undefined;
      for (const p of op.parameters) {
        const bad =
          p.schema.enum !== undefined
            ? 'zz'
            : p.schema.pattern
              ? 'not-an-id'
              : p.schema.maxLength !== undefined
                ? 'x'.repeat(p.schema.maxLength + 1)
                : null;
        if (bad === null) continue;
        const url =
          p.in === 'path'
            ? urlOf(op, { [p.name]: bad })
            : urlOf(op, {}, `${p.name}=${encodeURIComponent(bad)}`);
        expect400(await send(op, url, body), `${label} ${p.in} ${p.name}=${bad.slice(0, 20)}`);
        probes++;
      }
    }
    expect(probes).toBeGreaterThan(10);
  });

  it('answers oversized bodies with 413 in the common shape', async () => {
    for (const op of operations.filter((o) => o.body)) {
      const huge = JSON.stringify({
        ...(sample(op.body!.schema) as object),
        padding: 'x'.repeat(70 * 1024),
      });
      const response = await send(op, urlOf(op), { payload: huge });
      expectGoodError(response, `${op.method} ${op.path} 70 KB body`);
      expect(response.statusCode).toBe(413);
      expect(response.json().error.code).toBe('payload_too_large');
    }
  });

  it('never answers 500, whatever arrives', async () => {
    const garbage: { payload: string; type?: string }[] = [
      { payload: 'null' },
      { payload: '[]' },
      { payload: '"text"' },
      { payload: '12' },
      { payload: '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}' },
      { payload: '['.repeat(5_000) + ']'.repeat(5_000) },
      { payload: '\u0000\uffff', type: 'application/json' },
      { payload: 'a=1&b=2', type: 'application/x-www-form-urlencoded' },
      { payload: 'plain words', type: 'text/plain' },
      { payload: '--x\r\nbroken', type: 'multipart/form-data; boundary=x' },
      { payload: '{}', type: 'application/json; charset=klingon' },
    ];
    for (const op of operations) {
      const label = `${op.method} ${op.path}`;
      for (const body of garbage) {
        expectGoodError(await send(op, urlOf(op), body), `${label} <${body.payload.slice(0, 20)}>`);
      }
      for (const weird of ['%00', '..%2F..%2Fetc%2Fpasswd', '%E2%80%AE', '%', "'%20OR%201=1--"]) {
        const url = op.path.includes('{')
          ? op.path.replace(/\{[^}]+\}/g, weird)
          : `${op.path}?language=${weird}&x=${weird}`;
        const response = await ctx.app.inject({
          method: op.method.toUpperCase() as 'GET',
          url,
          headers: { authorization: `Bearer ${token}`, 'accept-language': 'fr' },
        });
        expectGoodError(response, `${label} ${url}`);
      }
      // Without a session, with a malformed one, and with an absurd language header.
      for (const headers of [
        {},
        { authorization: 'Bearer' },
        { authorization: `Bearer ${'x'.repeat(5_000)}` },
        { authorization: 'Basic Zm9vOmJhcg==' },
        { 'accept-language': ';;;q=abc,*' },
      ]) {
        const response = await ctx.app.inject({
          method: op.method.toUpperCase() as 'GET',
          url: urlOf(op),
          headers,
        });
        expectGoodError(response, `${label} ${JSON.stringify(headers).slice(0, 40)}`, 'en');
      }
    }
  });
});
