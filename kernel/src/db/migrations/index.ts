import type { MigrationObject } from '@mikro-orm/core';
import { Migration0001Foundation } from './0001-foundation.js';

/**
 * The core's migrations in order. Listed, not discovered from files, so that compiled and source
 * runs apply the same list and a bundle cannot miss one. Add new ones at the end; never edit one
 * that has shipped.
 */
export const coreMigrations: MigrationObject[] = [{ name: 'core_0001_foundation', class: Migration0001Foundation }];
