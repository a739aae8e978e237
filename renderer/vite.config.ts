/**
 * Renderer build. `base: './'` keeps asset URLs relative, so the same dist/ works from file:// in
 * Electron and from / over HTTP (`baton serve`). In dev, `BATON_DEV_SERVER=http://127.0.0.1:8765`
 * proxies the API to a running `baton serve` (log in through the proxied /login URL).
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const devServer = process.env.BATON_DEV_SERVER;

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
  server: devServer
    ? {
        proxy: {
          '/api': { target: devServer, changeOrigin: true },
          '/login': { target: devServer, changeOrigin: true },
        },
      }
    : {},
});
