import { z } from 'zod';

/** The console provider has nothing to configure; strict so that a misplaced SMTP option is an error. */
export const consoleEmailOptionsSchema = z.strictObject({});

export type ConsoleEmailOptions = z.output<typeof consoleEmailOptionsSchema>;
