import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The UI is served by DocQA itself at /, so every URL is same-origin: no proxy, no CDN, no external font.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed names under assets/: the server caches them for a year and index.html not at all.
    assetsDir: 'assets',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
  },
  server: {
    // `npx vite` in packages/web during development: the API of a DocQA running on the default port.
    proxy: { '/api': 'http://127.0.0.1:8000', '/docs': 'http://127.0.0.1:8000' },
  },
});
