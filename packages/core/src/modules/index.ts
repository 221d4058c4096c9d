import type { AnyModule } from '@docqa/plugin-api';
import { brandingModule } from './branding/index.js';
import { licenseModule } from './license/index.js';

/** The standard domain modules, in no particular order: the kernel orders them by their dependencies. */
export const standardModules: readonly AnyModule[] = [brandingModule, licenseModule];
