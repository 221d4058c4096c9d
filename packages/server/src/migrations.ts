import { identityMigrations } from './identity/schema.js';

/**
 * The schema of the areas that are not modules yet, in the order they were written; the modules
 * (packages/core/src/modules) bring their own; all run in the order of their names. Shrinks as areas move.
 */
export const applicationMigrations = [...identityMigrations];
