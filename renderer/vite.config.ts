// Vite build of the renderer into dist/renderer. Relative asset paths (`base: './'`) let the same
// bundle load from file:// in Electron and from the web host's HTTP server.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// URL arithmetic instead of node:path: the renderer folder stays free of Node imports (lint rule).
const here = decodeURIComponent(new URL('.', import.meta.url).pathname);
const outDir = decodeURIComponent(new URL('../dist/renderer', import.meta.url).pathname);

export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2_000,
  },
});
