import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Request, type Response } from 'express';

const require = createRequire(import.meta.url);
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const redocBundle = require.resolve('redoc/bundles/redoc.standalone.js');

// Pages reference only files served here: no CDN, no inline script (so a strict CSP holds).
const swaggerPage = (assets: string, specUrl: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>DocQA API reference</title><link rel="stylesheet" href="${assets}/swagger-ui.css"></head>
<body><div id="swagger-ui" data-spec-url="${specUrl}"></div>
<script src="${assets}/swagger-ui-bundle.js"></script><script src="${assets}/init.js"></script></body></html>`;

const swaggerInit =
  "window.ui = SwaggerUIBundle({ url: document.getElementById('swagger-ui').dataset.specUrl, " +
  "dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: true });";

const redocPage = (specUrl: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>DocQA API reference</title></head>
<body><redoc spec-url="${specUrl}"></redoc><script src="/api/redoc/redoc.standalone.js"></script></body></html>`;

const pageHeaders = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self' " +
    "'unsafe-inline'; worker-src 'self' blob:; script-src 'self'",
  'Cache-Control': 'no-cache',
};

function html(res: Response, body: string): void {
  res.set(pageHeaders).type('html').send(body);
}

/**
 * The interactive reference is always at /docs (spec 4.12). ENABLE_API_DOCS adds /api/swagger,
 * /api/redoc and /api/openapi.json.
 */
export function mountApiReference(
  app: express.Express,
  openApi: () => Record<string, unknown>,
  enableApiDocs: boolean,
): void {
  const assets = express.static(swaggerUiDir, { index: false, maxAge: '1d' });
  const init = (_req: Request, res: Response) => res.type('js').send(swaggerInit);

  app.get('/docs', (_req, res) => html(res, swaggerPage('/docs/assets', '/docs/openapi.json')));
  app.get('/docs/assets/init.js', init);
  app.use('/docs/assets', assets);
  app.get('/docs/openapi.json', (_req, res) => res.json(openApi()));

  if (!enableApiDocs) return;
  app.get('/api/openapi.json', (_req, res) => res.json(openApi()));
  app.get('/api/swagger', (_req, res) => html(res, swaggerPage('/api/swagger/assets', '/api/openapi.json')));
  app.get('/api/swagger/assets/init.js', init);
  app.use('/api/swagger/assets', assets);
  app.get('/api/redoc', (_req, res) => html(res, redocPage('/api/openapi.json')));
  app.get('/api/redoc/redoc.standalone.js', (_req, res) => res.sendFile(redocBundle, { maxAge: '1d' }));
}
