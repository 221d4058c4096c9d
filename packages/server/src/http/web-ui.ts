import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '@docqa/plugin-api';

/** packages/web/dist, beside this package (the same from src/ under tsx and from dist/). */
export const defaultWebDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

// The app loads only its own files; answers are sanitised, and the policy is the second fence.
// worker-src names what script-src already implied: the document viewer's pdf.js worker is a file
// under /assets on this origin (no blob: or CDN workers).
const pageHeaders = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'Cache-Control': 'no-cache',
  'X-Frame-Options': 'DENY',
};

/** Paths the UI never answers: the API's and the reference's own 404s stay JSON. */
const notUi = (p: string) =>
  p === '/api' || p.startsWith('/api/') || p === '/docs' || p.startsWith('/docs/') || p.startsWith('/assets/');

/**
 * Serves the web UI (packages/web, built by `npm run build`) at `/`: hashed files under /assets
 * cached for a year, index.html never cached and answered for every client route (`/chat/…`,
 * `/reset-password?token=…`). A tree whose UI was not built serves the API alone and says so once.
 */
export function mountWebUi(app: express.Express, logger: Logger, webDir = defaultWebDir): void {
  const indexFile = path.join(webDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    logger.warn({ webDir }, `web UI not found at ${webDir} (run npm run build); serving the API only`);
    return;
  }
  app.use(
    '/assets',
    express.static(path.join(webDir, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: true }),
  );
  // Files at the top of dist (favicon.svg): short-lived, their names carry no hash.
  app.use(
    express.static(webDir, {
      index: false,
      maxAge: '1h',
      setHeaders: (res, file) => {
        if (path.basename(file) === 'index.html')
          for (const [name, value] of Object.entries(pageHeaders)) res.setHeader(name, value);
      },
    }),
  );
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || notUi(req.path)) return next();
    res
      .set(pageHeaders)
      .sendFile(indexFile, { cacheControl: false, lastModified: false }, (error) => (error ? next(error) : undefined));
  });
}
