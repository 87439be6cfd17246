// Multipart uploads: one file, a few small fields. The file limit is one byte over our
// maximum so the upload code can tell "exactly the maximum" from "too large".
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { shared } from './shared.js';

export const uploads = shared(async function uploads(app: FastifyInstance) {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: {
      fileSize: app.config.maxUploadBytes + 1,
      files: 1,
      fields: 10,
      parts: 12,
      fieldSize: 1024,
    },
  });
});
