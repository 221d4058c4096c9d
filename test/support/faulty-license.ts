// Loaded by a `docqa serve` under test through docqa.config.json: a license gate (FREE) that
// commits one failure nobody handles when the file DOCQA_TEST_FAULT_FILE names asks for it, so the
// process guard meets the real thing in a real server process.
import fs from 'node:fs';
import { licenseStandIn } from '../../packages/server/src/testing/license-stand-in.js';
import { definePlugin, type LicenseGate } from '@docqa/plugin-api';

export type Fault = 'rejection' | 'exception' | 'request-exception';

const faultFile = () => process.env.DOCQA_TEST_FAULT_FILE as string;

/** The fault asked for, taken once: the file is removed as it is read. */
function takeFault(): Fault | null {
  try {
    const fault = fs.readFileSync(faultFile(), 'utf8').trim() as Fault;
    fs.rmSync(faultFile());
    return fault;
  } catch {
    return null;
  }
}

const gate = licenseStandIn(() => ({ plan: 'FREE' }));

export default definePlugin({
  ...gate,
  init: async (context): Promise<LicenseGate> => {
    const provider = await gate.init(context);
    let pending: Fault | null = null;
    // Outside any request: the kernel's own timers are where such failures would come from.
    const timer = setInterval(() => {
      pending ??= takeFault();
      if (pending === 'rejection') {
        pending = null;
        // The fault under test: a rejection nobody handles, on purpose.
        // eslint-disable-next-line @typescript-eslint/no-floating-promises
        void Promise.reject(new Error('test fault: a rejection nothing handles'));
      } else if (pending === 'exception') {
        pending = null;
        throw new Error('test fault: an exception outside any request');
      }
    }, 50);
    context.onStop(() => clearInterval(timer));
    return {
      ...provider,
      // Every request checks the plan: the failure is thrown from the request's own code.
      current: (): ReturnType<LicenseGate['current']> => {
        if (pending === 'request-exception') {
          pending = null;
          setImmediate(() => {
            throw new Error('test fault: an exception inside a request');
          });
        }
        return provider.current();
      },
    };
  },
});

/** The environment and config file that load this gate, and a function that asks for a fault. */
export function useFaultyLicense(dir: string): {
  env: Record<string, string>;
  cause(fault: Fault): void;
  armed(): boolean;
} {
  const file = `${dir}/fault`;
  const configFile = `${dir}/docqa.config.json`;
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      plugins: [{ use: new URL(import.meta.url).pathname, instance: 'faulty-license' }],
      disable: ['license-ed25519'],
    }),
  );
  return {
    env: { DOCQA_CONFIG_FILE: configFile, DOCQA_TEST_FAULT_FILE: file },
    cause: (fault) => fs.writeFileSync(file, fault),
    // The gate's timer removes the file as it takes the fault.
    armed: () => !fs.existsSync(file),
  };
}
