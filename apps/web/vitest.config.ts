// Component tests of the web app (project `web`): jsdom, React Testing Library, the real
// i18n resources and the contracts' sources.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { contractsAlias } from './contractsAlias.js';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: contractsAlias },
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/testing/setup.ts'],
    passWithNoTests: true,
  },
});
