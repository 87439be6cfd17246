// End-to-end tests: the built server (apps/server/dist) and web app (apps/web/dist) driven in
// Debian's Chromium through playwright-core. `npm run test:e2e` builds first.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
