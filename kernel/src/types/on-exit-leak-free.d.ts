// The package ships no types; this is the part of its API the log destination uses.
declare module 'on-exit-leak-free' {
  /** Calls `shutdown(object, 'exit')` when the process exits, unless the object was collected first. */
  export function register<T extends object>(object: T, shutdown: (object: T, event: 'exit') => void): void;
  export function unregister(object: object): void;
}
