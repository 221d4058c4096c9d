import { createHook } from 'node:async_hooks';

/** Held for the life of the process: see holdTickObjectShape. */
let heldTickObject: object | null = null;

/**
 * Keeps one of `process.nextTick`'s tick objects alive for the life of the process, so that the
 * shapes ("maps") V8 gives them stay alive too.
 *
 * node makes a tick object for every `process.nextTick` (about seven a request: the end of a request,
 * an answer's `finish`, stream reads and writes) from one object literal with computed keys. V8 holds
 * the shapes that literal makes only while some object has them. A full garbage collection that comes
 * while no tick is queued clears them, early in the process's life, before optimised code keeps them.
 * The literal's inline caches then see new shapes, go megamorphic and stay so for good: every tick
 * object is then built by V8's runtime, 375–394 ns a `nextTick` instead of 72 in a plain node process
 * given four full collections early on, and 345–730 ns against 29–180 ns measured in the embedded
 * database's server, whose start and first indexing bring seven full collections in two seconds.
 * One object held keeps the shapes (docs/operations.md, Load).
 *
 * The tick object is taken from an async hook's `init`, enabled for one `nextTick` only: node
 * exposes it nowhere else, and with the hook disabled again `nextTick` pays nothing for it.
 */
export function holdTickObjectShape(): void {
  if (heldTickObject) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource: object) {
      if (type === 'TickObject') heldTickObject ??= resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
}
