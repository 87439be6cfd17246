// Starts the server: configuration from the environment, then listen. `npm start` at the
// repository root builds everything and runs this file's compiled form.
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const config = loadConfig();
const app = await buildApp(config);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
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
