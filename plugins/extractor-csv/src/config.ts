import { z } from 'zod';

/** CSV needs no settings; strict so that a misspelt option stops start-up instead of being ignored. */
export const csvExtractorOptionsSchema = z.strictObject({});

export type CsvExtractorOptions = z.output<typeof csvExtractorOptionsSchema>;
