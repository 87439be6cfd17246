// Everything under /api, one folder per part of the URL space (spec §7).
import type { FastifyPluginAsync } from 'fastify';
import authRoutes from './auth/index.js';
import healthRoutes from './health.js';
import scanRoutes from './scan/index.js';

const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(scanRoutes, { prefix: '/scan' });
};

export default apiRoutes;
