/**
 * Entry of the short-lived child process that creates a new embedded database (see
 * createEmbeddedDatabase): `create-embedded-database <pgDir>`.
 */
import { PGlite } from '@electric-sql/pglite';
import { embeddedOptions } from './embedded-database.js';

const pgDir = process.argv[2];
if (!pgDir) throw new Error('usage: create-embedded-database <directory>');
const database = await PGlite.create(embeddedOptions(pgDir));
await database.close();
