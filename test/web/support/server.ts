// Loaded by the `docqa serve` under test through docqa.config.json ({"use": ".../server.ts"}): the CLI
// runs from source with tsx, so this TypeScript module loads as a plugin like any other.
import fs from 'node:fs';
import path from 'node:path';
import { createTemporaryDatabase } from '@docqa/kernel/testing';
import { licenseStandIn } from '../../../packages/server/src/testing/license-stand-in.js';

/** The ENTERPRISE plan, so every screen of the UI has its feature (audit log, groups, rules, analytics). */
export default licenseStandIn(() => ({ plan: 'ENTERPRISE' }));

/** Writes a docqa.config.json loading the plan above into dir; answers the environment to add. */
export function enterprisePlan(dir: string): Record<string, string> {
  const configFile = path.join(dir, 'docqa.config.json');
  // The preset's own license gate leaves: a plan stand-in takes its place. The web integration may
  // crawl the test's site on loopback, which its outbound guard refuses unless allowed.
  const config = {
    disable: ['license-ed25519'],
    plugins: [{ use: new URL(import.meta.url).pathname, instance: 'enterprise-plan' }],
    configure: { 'integration-web': { outboundAllow: ['127.0.0.1'] } },
  };
  fs.writeFileSync(configFile, JSON.stringify(config));
  return { DOCQA_CONFIG_FILE: configFile };
}

/** A database for the server: a fresh one on TEST_DATABASE_URL's server, else the embedded one. */
export async function serverDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (!process.env.TEST_DATABASE_URL) return { env: {}, drop: async () => undefined };
  const database = await createTemporaryDatabase(process.env.TEST_DATABASE_URL);
  return { env: { DATABASE_URL: database.url }, drop: database.drop };
}
