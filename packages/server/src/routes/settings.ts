import { z } from 'zod';
import { nameSchema } from '../http/openapi.js';
import { seedVariables } from '@docqa/kernel';
import { defineRoute } from '../http/route.js';
import { identityTokens } from '@docqa/core/identity';

const settingValue = z.union([z.string(), z.number(), z.boolean()]);

const settingsSchema = z.object({
  settings: z
    .record(z.string(), settingValue)
    .describe('Every runtime setting (the spec\'s "seed" variables) as stored now.'),
  derived: z.object({ EFFECTIVE_N_CTX: z.number().int() }).describe('Read-only values derived at start-up.'),
});
nameSchema(settingsSchema, 'RuntimeSettings');

const changeSchema = z
  .record(z.string(), settingValue)
  .refine((changes) => Object.keys(changes).length > 0, 'name at least one setting')
  .describe(`Settings to change, by variable name: ${seedVariables.join(', ')}. All are applied, or none.`);

export const settingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/settings',
    access: 'admin',
    tag: 'Administration',
    operationId: 'getRuntimeSettings',
    summary: 'Runtime settings and derived values',
    responses: { 200: { description: 'The settings in effect.', schema: settingsSchema } },
    handler: ({ kernel }) => ({
      status: 200,
      body: { settings: kernel.settings.all(), derived: { EFFECTIVE_N_CTX: kernel.effectiveNCtx } },
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/settings',
    access: 'admin',
    tag: 'Administration',
    operationId: 'updateRuntimeSettings',
    summary: 'Change runtime settings without a restart',
    description:
      'Validates every change first; one invalid value answers 422 listing each bad field and changes ' +
      'nothing. Other replicas apply the change within 5 seconds. Recorded as config.update.',
    request: { body: changeSchema },
    responses: { 200: { description: 'The settings after the change.', schema: settingsSchema } },
    deps: { identity: identityTokens.service },
    async handler({ kernel, deps, body, principal, req }) {
      await kernel.settings.set(body, principal?.username);
      await deps.identity.recordConfigUpdate(principal, req.ip, 'runtime.settings', { changed: body });
      return {
        status: 200,
        body: { settings: kernel.settings.all(), derived: { EFFECTIVE_N_CTX: kernel.effectiveNCtx } },
      };
    },
  }),
];
