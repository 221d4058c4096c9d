import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError } from '../api/http';

export interface AsyncState<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload(): void;
  /** Replaces the data with a value already known (the answer of a change). */
  set(data: T): void;
}

/**
 * Runs `load` when `deps` change (and on reload), keeping the last data while reloading; with
 * `pollMs` it runs again every so often while `poll` is true.
 */
export function useAsync<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
  options: { pollMs?: number; poll?: boolean } = {},
): AsyncState<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let live = true;
    setLoading(true);
    loadRef.current().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (reason: unknown) => {
        if (!live) return;
        setError(describeError(reason));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
    // `load` is read through a ref: the dependencies are the caller's `deps`.
  }, [...deps, tick]);

  const { pollMs, poll = true } = options;
  useEffect(() => {
    if (!pollMs || !poll) return;
    const timer = setInterval(() => setTick((value) => value + 1), pollMs);
    return () => clearInterval(timer);
  }, [pollMs, poll]);

  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { data, error, loading, reload, set: setData };
}
