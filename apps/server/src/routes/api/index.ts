// Everything under /api, one folder per part of the URL space (spec §7).
import type { FastifyPluginAsync } from 'fastify';
import authRoutes from './auth/index.js';
import creditRoutes from './credits/index.js';
import userRoutes from './user/index.js';
import healthRoutes from './health.js';
import scanRoutes from './scan/index.js';
import adminRoutes from './admin/index.js';
import memberRoutes from './members/index.js';
import notificationRoutes from './notifications/index.js';
import rankRoutes from './ranks/index.js';
import reportProblemRoutes from './report-problem/index.js';
import { staffAuthentication } from '../../plugins/staffAuth.js';

const apiRoutes: FastifyPluginAsync = async (app) => {
  await app.register(staffAuthentication);
  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(scanRoutes, { prefix: '/scan' });
  await app.register(adminRoutes, { prefix: '/admin' });
  await app.register(memberRoutes, { prefix: '/members' });
  await app.register(rankRoutes, { prefix: '/ranks' });
  await app.register(notificationRoutes, { prefix: '/notifications' });
  await app.register(reportProblemRoutes, { prefix: '/report-problem' });
  await app.register(userRoutes, { prefix: '/user' });
  await app.register(creditRoutes, { prefix: '/credits' });
};

export default apiRoutes;
