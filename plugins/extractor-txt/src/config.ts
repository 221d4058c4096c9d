import { z } from 'zod';

/** Plain text needs no settings; strict so that a misspelt option stops start-up instead of being ignored. */
export const txtExtractorOptionsSchema = z.strictObject({});

export type TxtExtractorOptions = z.output<typeof txtExtractorOptionsSchema>;
