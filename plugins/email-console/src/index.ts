import { definePlugin } from '@docqa/plugin-api';
import { consoleEmailOptionsSchema } from './config.js';
import { createConsoleEmailProvider } from './provider.js';

export { consoleEmailLogMessage } from './provider.js';

/** Email that goes to the log (EMAIL_PROVIDER=console, the default): nothing leaves the machine. */
export default definePlugin({
  apiVersion: 1,
  kind: 'email',
  id: 'email-console',
  description: 'Writes emails (password reset links) to the log instead of sending them.',
  configSchema: consoleEmailOptionsSchema,
  deps: {},
  init({ logger }) {
    return createConsoleEmailProvider(logger);
  },
});
