// Starts the server: configuration from the environment, then listen. `npm start` at the
// repository root builds everything and runs this file's compiled form.
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const config = loadConfig();
const app = await buildApp(config);

// Graceful shutdown: no new scan starts, running scans get SHUTDOWN_GRACE_MS to finish, then
// the server closes and whatever still runs goes back to the queue for the next start. A
// second signal stops at once (the queue is in the database, so nothing is lost).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    for (const again of ['SIGINT', 'SIGTERM'] as const) process.once(again, () => process.exit(1));
    app.scanQueue
      .drain(config.shutdownGraceMs)
      .then((stillRunning) => {
        if (stillRunning > 0) app.log.info({ stillRunning }, 'grace period over');
        return app.close();
      })
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
  if (config.steam.demo) {
    app.log.warn(
      `Sign-in uses the built-in DEMO provider (${config.steam.openIdEndpoint}); set STEAM_OPENID_ENDPOINT for Steam.`,
    );
  }
  app.log.info(`Sentinelle is ready at ${config.publicUrl}`);
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  process.exit(1);
}
