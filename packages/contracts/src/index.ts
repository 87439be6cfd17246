// Everything the server, the web app and the scanner agree on: entity and API schemas,
// ranks and permissions, score bands, business constants and error codes.
export * from './constants.js';
export * from './ranks.js';
export * from './scoreBands.js';
export * from './errors.js';
export * from './entities/scan.js';
export * from './entities/user.js';
export * from './entities/credits.js';
export * from './entities/reports.js';
export * from './entities/notifications.js';
export * from './entities/content.js';
export * from './api/auth.js';
export * from './api/scan.js';
export * from './api/admin.js';
export * from './api/health.js';
