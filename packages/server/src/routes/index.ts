import type { AnyRoute } from '../http/route.js';
import { settingsRoutes } from './settings.js';
import { systemRoutes } from './system.js';

/** The route table: every endpoint DocQA serves, with its access level and plan gate. */
export const routes: readonly AnyRoute[] = [...systemRoutes, ...settingsRoutes];
