// Builds the single-page app into dist/ (served by apps/server with an SPA fallback) and, in
// development, proxies /api to the server on port 8080.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { contractsAlias } from './contractsAlias.js';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: contractsAlias },
  server: {
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // React DOM, zod and i18next alone weigh about 500 kB; that is expected for the vendor chunk.
    chunkSizeWarningLimit: 700,
    // Libraries change less often than our code: a separate chunk stays cached across releases.
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'vendor', test: /node_modules/ }] } },
    },
  },
});
