export { startServer, openApiDocument, type RunningServer, type ServerOptions } from './server.js';
export { createApp, type AppOptions } from './http/app.js';
export { defineRoute, type AnyRoute, type Access, type Principal, type RouteDefinition } from './http/route.js';
export { type Authenticator } from './http/access.js';
export { routes } from './routes/index.js';
export { presets, standardPreset } from './presets/standard.js';
