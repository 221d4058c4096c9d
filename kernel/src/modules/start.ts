import { DocqaError, type AnyModule, type Logger, type Token } from '@docqa/plugin-api';
import type { Container } from '../container.js';
import { StopHooks } from '../stop-hooks.js';

export interface StartedModules {
  ids: string[];
  /** Runs every module's onStart, then, where jobs run, every onWorkerStart, in plan order. */
  startHooks(runsJobs: boolean): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Calls each module's init in plan order and registers what it provides. If one fails, the ones
 * already started are stopped again and the failure names the module.
 */
export async function startModules(
  plan: readonly AnyModule[],
  container: Container,
  logger: Logger,
): Promise<StartedModules> {
  const stopHooks = new StopHooks(logger, 'module');
  const started: Array<{ module: AnyModule; context: Parameters<NonNullable<AnyModule['onStart']>>[0] }> = [];
  const stop = () => stopHooks.run();
  const failed = async (module: AnyModule, step: string, error: unknown): Promise<never> => {
    await stop();
    throw new DocqaError(
      'module_failed',
      `Module error: module '${module.id}' failed ${step}: ${(error as Error).message}`,
      { cause: error },
    );
  };

  for (const module of plan) {
    const deps: Record<string, unknown> = {};
    for (const [name, token] of Object.entries(module.deps)) deps[name] = container.resolveDependency(token);
    const context = {
      deps,
      logger: logger.child({ module: module.id }),
      onStop: (hook: () => Promise<void> | void) => stopHooks.add(module.id, hook),
      signal: stopHooks.signal,
    };
    let provided: Record<string, unknown>;
    try {
      provided = (await module.init(context as never)) as Record<string, unknown>;
    } catch (error) {
      return failed(module, 'to start', error);
    }
    for (const [name, token] of Object.entries(module.provides) as Array<[string, Token<unknown>]>) {
      if (!(name in provided))
        return failed(module, 'to start', new Error(`its init returned no '${name}', which it declares it provides`));
      container.register(token, provided[name]);
    }
    started.push({ module, context: { ...context, provided } as never });
  }

  return {
    ids: plan.map((module) => module.id),
    async startHooks(runsJobs) {
      for (const { module, context } of started) {
        try {
          await module.onStart?.(context);
        } catch (error) {
          await failed(module, 'in onStart', error);
        }
      }
      if (!runsJobs) return;
      for (const { module, context } of started) {
        try {
          await module.onWorkerStart?.(context);
        } catch (error) {
          await failed(module, 'in onWorkerStart', error);
        }
      }
    },
    stop,
  };
}
