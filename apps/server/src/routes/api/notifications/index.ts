// /api/notifications: the staff notification panel. Notifications are shared by all staff;
// reading and deleting only change the caller's own view (their reader key).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  notificationIdParamsSchema,
  notificationsChangedResponseSchema,
  notificationsResponseSchema,
  okResponseSchema,
  unreadCountResponseSchema,
} from '@sentinelle/contracts';
import { ApiProblem } from '../../../errors/apiProblem.js';
import { requireStaff } from '../../../plugins/staffAuth.js';
import {
  deleteAllFor,
  deleteFor,
  markAllRead,
  markRead,
  notificationsFor,
  unreadCount,
} from '../../../services/notifications.js';
import { errorResponses } from '../errorResponses.js';

const notFound = () => new ApiProblem('not_found', 404, { messageKey: 'notification_not_found' });

const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const staff = requireStaff(app);
  const security = [{ bearer: [] }];
  const tags = ['notifications'];
  // Marking read and deleting take the same input and answer alike, for one notification
  // (by id) and for all of the caller's (how many changed).
  const oneNotification = {
    onRequest: staff,
    schema: {
      tags,
      security,
      params: notificationIdParamsSchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
  };
  const allNotifications = {
    onRequest: staff,
    schema: {
      tags,
      security,
      response: { 200: notificationsChangedResponseSchema, ...errorResponses },
    },
  };

  app.get(
    '/unread-count',
    {
      onRequest: staff,
      schema: { tags, security, response: { 200: unreadCountResponseSchema, ...errorResponses } },
    },
    async (request) => ({ count: await unreadCount(app.db, request.actor!.reader) }),
  );

  app.get(
    '/',
    {
      onRequest: staff,
      schema: { tags, security, response: { 200: notificationsResponseSchema, ...errorResponses } },
    },
    async (request) => ({ notifications: await notificationsFor(app.db, request.actor!.reader) }),
  );

  app.put('/read-all', allNotifications, async (request) => ({
    success: true as const,
    changed: await markAllRead(app.db, request.actor!.reader),
  }));

  app.put('/:id/read', oneNotification, async (request) => {
    if (!(await markRead(app.db, request.actor!.reader, request.params.id))) throw notFound();
    return { success: true as const };
  });

  app.delete('/:id', oneNotification, async (request) => {
    if (!(await deleteFor(app.db, request.actor!.reader, request.params.id))) throw notFound();
    return { success: true as const };
  });

  app.delete('/', allNotifications, async (request) => ({
    success: true as const,
    changed: await deleteAllFor(app.db, request.actor!.reader),
  }));
};

export default notificationRoutes;
