// Builds the Fastify application from a Config: database (migrated), plugins, routes, the
// demo sign-in provider when configured, the scan queue and the web app. Tests call this
// with a temporary DATA_DIR; main.ts calls it and listens.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { DEMO_STEAM_PREFIX } from './config.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { demoSteamProvider } from './auth/demoSteamProvider.js';
import { ScanQueue } from './jobs/scanQueue.js';
import { Maintenance } from './jobs/maintenance.js';
import { CreditResets } from './services/creditReset.js';
import { loggerOptions } from './plugins/logging.js';
import { strictValidatorCompiler } from './plugins/validation.js';
import { apiDocs } from './plugins/apiDocs.js';
import { authentication } from './plugins/auth.js';
import { errorHandling, sendProblem } from './plugins/errors.js';
import { ApiProblem } from './errors/apiProblem.js';
import { uploads } from './plugins/multipart.js';
import { security } from './plugins/security.js';
import { webApp } from './plugins/webApp.js';
import apiRoutes from './routes/api/index.js';
import './plugins/context.js';

/** Upload leftovers of a process that died mid-upload: never a scan, safe to drop. */
function removeUnfinishedUploads(archivesDir: string): void {
  for (const name of readdirSync(archivesDir)) {
    if (name.endsWith('.part')) rmSync(join(archivesDir, name), { force: true });
  }
}

/** What the app takes besides its Config; tests replace the clock and capture the logs. */
export interface AppDeps {
  /** Milliseconds since the epoch; everything time-based reads it (Date.now by default). */
  clock?: () => number;
  /** Where pino writes (stdout by default). */
  logStream?: DestinationStream;
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const clock = deps.clock ?? Date.now;
  mkdirSync(config.archivesDir, { recursive: true });
  removeUnfinishedUploads(config.archivesDir);
  const db = openDatabase(config.databaseUrl);
  await migrateToLatest(db);

  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream),
    trustProxy: config.trustProxy,
    // JSON calls are small; uploads are multipart and limited by the multipart plugin.
    bodyLimit: config.jsonBodyLimitBytes,
    // Long enough for every path parameter the contracts allow (their own limits answer 400).
    routerOptions: { maxParamLength: 1024 },
    // A URL the router cannot even take apart (bad escape, huge parameter) gets our error shape.
    frameworkErrors: (error, request, reply) =>
      sendProblem(
        request,
        reply,
        new ApiProblem('validation_failed', 400, { details: { reason: error.code } }),
      ),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(strictValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // JSON calls without a body (e.g. a cancel posted with a JSON content type) are accepted.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('the body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });

  const scanQueue = new ScanQueue(
    db,
    {
      size: config.scanWorkers,
      timeoutMs: config.scanTimeoutMs,
      workerEntry: config.scanWorkerEntry,
      clock,
    },
    app.log,
  );
  const creditResets = new CreditResets(
    db,
    {
      time: config.creditResetTime,
      timeZone: config.creditResetTimeZone,
      allowance: config.dailyCredits,
    },
    clock,
  );
  const maintenance = new Maintenance(
    db,
    creditResets,
    clock,
    config.maintenanceIntervalMs,
    app.log,
  );
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('scanQueue', scanQueue);
  app.decorate('clock', clock);
  app.decorate('creditResets', creditResets);
  app.decorate('maintenance', maintenance);

  await app.register(errorHandling);
  await app.register(security);
  await app.register(authentication);
  await app.register(uploads);
  await app.register(apiDocs);
  await app.register(apiRoutes, { prefix: '/api' });
  if (config.steam.demo) await app.register(demoSteamProvider, { prefix: DEMO_STEAM_PREFIX });
  await app.register(webApp);

  app.addHook('onReady', async () => {
    await scanQueue.start();
    await maintenance.start();
  });
  app.addHook('onClose', async () => {
    await maintenance.stop();
    await scanQueue.close();
    await db.destroy();
  });
  return app;
}
