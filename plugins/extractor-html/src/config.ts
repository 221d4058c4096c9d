import { z } from 'zod';

/** HTML needs no settings; strict so that a misspelt option stops start-up instead of being ignored. */
export const htmlExtractorOptionsSchema = z.strictObject({});

export type HtmlExtractorOptions = z.output<typeof htmlExtractorOptionsSchema>;
