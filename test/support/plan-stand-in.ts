// Loaded by a `docqa serve` under test through docqa.config.json ({"use": ".../plan-stand-in.ts"}):
// the CLI runs from source with tsx, so a TypeScript plugin module loads like any other.
import fs from 'node:fs';
import type { Plan, PlanLimits } from '@docqa/plugin-api';
import { licenseStandIn } from '../../packages/server/src/testing/license-stand-in.js';

export interface PlanFile {
  plan: Plan;
  /** Absent: the plan's default limits (decisions file: PRO 100 MB a file). */
  limits?: PlanLimits;
}

/**
 * The server's plan, read from the JSON file DOCQA_TEST_PLAN_FILE names at every check, so a test
 * switches plans by rewriting the file, without a restart.
 */
export default licenseStandIn(
  () => JSON.parse(fs.readFileSync(process.env.DOCQA_TEST_PLAN_FILE as string, 'utf8')) as PlanFile,
);

/** Writes the plan file and a docqa.config.json loading this stand-in into dir; returns the environment to add. */
export function usePlanFile(
  dir: string,
  plan: PlanFile,
): { env: Record<string, string>; setPlan(plan: PlanFile): void } {
  const planFile = `${dir}/plan.json`;
  const configFile = `${dir}/docqa.config.json`;
  const setPlan = (next: PlanFile) => fs.writeFileSync(planFile, JSON.stringify(next));
  setPlan(plan);
  // The plan is a single-provider kind: the standard preset's own gate (a signed license) stays out.
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      plugins: [{ use: new URL(import.meta.url).pathname, instance: 'plan-stand-in' }],
      disable: ['license-ed25519'],
    }),
  );
  return { env: { DOCQA_CONFIG_FILE: configFile, DOCQA_TEST_PLAN_FILE: planFile }, setPlan };
}
