import { z } from 'zod';

/** Markdown needs no settings; strict so that a misspelt option stops start-up instead of being ignored. */
export const mdExtractorOptionsSchema = z.strictObject({});

export type MdExtractorOptions = z.output<typeof mdExtractorOptionsSchema>;
