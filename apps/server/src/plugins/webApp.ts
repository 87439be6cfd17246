// Serves the built web app (apps/web/dist) with the SPA fallback: a GET outside /api/ and
// /assets/ gets index.html so client-side routes load; a missing asset or API path is a 404.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ApiProblem } from '../errors/apiProblem.js';
import { sendProblem } from './errors.js';
import { shared } from './shared.js';

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sentinelle</title></head>
<body><h1>Sentinelle</h1><p>The API is running, but the web app has not been built yet.
Run <code>npm run build</code> at the repository root, then restart the server.</p></body></html>`;

export const webApp = shared(async function webApp(app: FastifyInstance) {
  const root = app.config.webDistDir;
  const built = existsSync(join(root, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: true,
      index: ['index.html'],
      setHeaders(res, path) {
        // Vite fingerprints everything under assets/; the HTML must always be revalidated.
        res.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const pageRequest =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      !path.startsWith('/assets/');
    if (!pageRequest) return sendProblem(request, reply, new ApiProblem('not_found', 404));
    if (!built) return reply.status(200).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
});
