import { assertEmailAddress } from '@docqa/plugin-api';
import type { EmailProvider, Logger } from '@docqa/plugin-api';

/** The log message every email carries, so an operator can grep for reset links. */
export const consoleEmailLogMessage = 'email (console provider)';

/**
 * Writes each message to the instance's log instead of sending it: enough for a single-user or
 * evaluation install, where the operator reads password reset links from the logs. Only the text
 * part is logged; the HTML alternative says the same thing.
 */
export function createConsoleEmailProvider(logger: Logger): EmailProvider {
  return {
    async send({ to, subject, text }) {
      assertEmailAddress(to);
      logger.info({ to, subject, text }, consoleEmailLogMessage);
    },
  };
}
