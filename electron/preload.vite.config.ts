/**
 * Bundles the preload into dist/electron/preload.cjs: one CommonJS file whose only require is
 * 'electron', as sandboxed preloads demand (the contract and zod are inlined).
 */
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  publicDir: false,
  build: {
    outDir: 'dist/electron',
    emptyOutDir: false,
    target: 'chrome130',
    minify: false,
    sourcemap: true,
    lib: {
      entry: fileURLToPath(new URL('./preload.ts', import.meta.url)),
      formats: ['cjs'],
      fileName: () => 'preload.cjs',
    },
    rollupOptions: { external: ['electron'] },
  },
});
