// Where the repository lives on disk, found from this module's own location so `node
// apps/server/dist/main.js` works from any working directory.
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

/** apps/server/src or apps/server/dist → the repository root three levels up. */
export const SERVER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(SERVER_ROOT, '..', '..');
export const WEB_DIST_DIR = resolve(REPO_ROOT, 'apps', 'web', 'dist');
