// Abuse limits, driven by configuration: sign-in, scan submission and problem reports each
// have their own per-minute limit answering 429 in the common shape and the asked language;
// JSON bodies are capped; every answer carries the security headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@sentinelle/contracts';
import { MEMBER_A, multipart, signIn, startTestApp, type TestContext } from '../testing/testApp.js';

let ctx: TestContext;
let token: string;

beforeAll(async () => {
  ctx = await startTestApp({
    authRateLimitPerMinute: 3,
    uploadRateLimitPerMinute: 2,
    reportRateLimitPerMinute: 2,
  });
  token = await signIn(ctx, MEMBER_A); // uses 2 of the 3 sign-in calls (return + session)
});
afterAll(async () => {
  await ctx.close();
});

function expectRateLimited(
  response: { statusCode: number; json(): unknown },
  language: 'en' | 'fr',
) {
  expect(response.statusCode).toBe(429);
  const body = apiErrorSchema.parse(response.json());
  expect(body.error.code).toBe('rate_limited');
  expect(body.error.message).toBe(
    language === 'fr'
      ? 'Trop de requêtes, veuillez réessayer dans un instant'
      : 'Too many requests, please try again in a moment',
  );
}

describe('rate limits', () => {
  it('limit the sign-in calls', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/session',
        payload: { token: 'unknown-ticket' },
        headers: { 'accept-language': 'fr' },
      });
      statuses.push(r.statusCode);
      if (r.statusCode === 429) expectRateLimited(r, 'fr');
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 429).length).toBeLessThan(3);
  });

  it('limit scan submissions', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { payload, headers } = multipart([{ name: 'file', filename: 'a.txt', content: 'x' }]);
      const r = await ctx.app.inject({
        method: 'POST',
        url: '/api/scan',
        payload,
        headers: { ...headers, authorization: `Bearer ${token}` },
      });
      statuses.push(r.statusCode);
      if (r.statusCode === 429) expectRateLimited(r, 'en');
    }
    expect(statuses).toEqual([400, 400, 429]);
  });

  it('limit problem reports', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await ctx.app.inject({
        method: 'POST',
        url: '/api/report-problem',
        payload: { category: 'other', message: `report ${i}`, language: 'fr' },
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'fr' },
      });
      statuses.push(r.statusCode);
      if (r.statusCode === 429) expectRateLimited(r, 'fr');
    }
    expect(statuses[2]).toBe(429);
    expect(statuses[0]).toBeLessThan(300);
  });
});

describe('request limits and headers', () => {
  it('refuse a JSON body over the limit with 413 and keep the security headers', async () => {
    const r = await ctx.app.inject({
      method: 'POST',
      url: '/api/credits/add-credits',
      payload: JSON.stringify({ x: 'y'.repeat(ctx.config.jsonBodyLimitBytes) }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    expect(r.statusCode).toBe(413);
    expect(apiErrorSchema.parse(r.json()).error.code).toBe('payload_too_large');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-security-policy']).toContain("default-src 'self'");
    expect(r.headers['x-frame-options']).toBeDefined();
  });

  it('refuse a multipart upload with too many parts', async () => {
    const parts = Array.from({ length: 20 }, (_, i) => ({ name: `f${i}`, content: 'v' }));
    const { payload, headers } = multipart(parts);
    const fresh = await startTestApp({ uploadRateLimitPerMinute: 100 });
    try {
      const t = await signIn(fresh, MEMBER_A);
      const r = await fresh.app.inject({
        method: 'POST',
        url: '/api/scan',
        payload,
        headers: { ...headers, authorization: `Bearer ${t}` },
      });
      expect(r.statusCode).toBe(400);
      expect(apiErrorSchema.parse(r.json()).error.code).toBe('validation_failed');
    } finally {
      await fresh.close();
    }
  });
});
