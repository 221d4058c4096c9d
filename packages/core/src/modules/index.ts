import type { AnyModule } from '@docqa/plugin-api';
import { analyticsModule } from './analytics/index.js';
import { auditModule } from './audit/index.js';
import { brandingModule } from './branding/index.js';
import { chatModule } from './chat/index.js';
import { documentsModule } from './documents/index.js';
import { groupsModule } from './groups/index.js';
import { identityModule } from './identity/index.js';
import { licenseModule } from './license/index.js';
import { metricsModule } from './metrics/index.js';
import { createModelsModule, modelsModule } from './models/index.js';
import { retentionModule } from './retention/index.js';
import { rulesModule } from './rules/index.js';
import { schedulesModule } from './schedules/index.js';
import { searchModule } from './search/index.js';
import { sourcesModule } from './sources/index.js';
import { syncModule } from './sync/index.js';

/** The standard domain modules, in no particular order: the kernel orders them by their dependencies. */
export const standardModules: readonly AnyModule[] = [
  analyticsModule,
  auditModule,
  brandingModule,
  chatModule,
  documentsModule,
  groupsModule,
  identityModule,
  licenseModule,
  metricsModule,
  modelsModule,
  retentionModule,
  rulesModule,
  schedulesModule,
  searchModule,
  sourcesModule,
  syncModule,
];

export { databaseAuditRecorder } from './audit/index.js';
export { createModelsModule } from './models/index.js';

/** The standard modules for maintenance tools (export, import): the same schema, no model loaded. */
export const maintenanceModules: readonly AnyModule[] = standardModules.map((module) =>
  module === modelsModule ? createModelsModule({ loadModels: false }) : module,
);
