// Loading data and running changes from components, with the state a page shows meanwhile.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { messageOf } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  /** The message of the last failure, shown in place of the data. */
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

/** Runs `load` on mount and whenever `deps` change or `reload()` is called. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: messageOf(error), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export interface Action {
  busy: boolean;
  /** The message of the last failure, shown next to what started the action. */
  error: string | undefined;
  /** Runs `change`; returns whether it succeeded. */
  run(change: () => Promise<unknown>): Promise<boolean>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = useCallback(async (change: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await change();
      return true;
    } catch (failure) {
      setError(messageOf(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}

/** `value` once it has stayed the same for `ms` (a search read when the typing pauses, not on each key). */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const wait = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(wait);
  }, [value, ms]);
  return settled;
}
