// Reading data and running changes from components, with the state a page shows meanwhile.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, messageOf } from './api.js';
import type { ErrorReason } from '../../src/core/errors.js';

export interface Read<T> {
  /** The latest answer, possibly of earlier `deps` while `loading`; kept when a later read fails. */
  data: T | undefined;
  /** The failure of the current `deps`, shown in place of the data. */
  error: string | undefined;
  /** Its reason, when the server gave one. */
  reason?: ErrorReason | undefined;
  loading: boolean;
  /** Reads again with the same `deps`. */
  reload(): void;
}

/** What a read depends on: values compared by their text (a URLSearchParams goes as its `toString()`). */
export type Dep = string | number | boolean | null | undefined;

/**
 * Runs `load` on mount and whenever `deps` change or `reload()` is called. The answer is tagged with
 * the deps (and round) it belongs to, so the read is `loading` from the very render in which they
 * change, not one effect later, and the last answer stays on screen, dimmed, until the next arrives.
 */
export function useRead<T>(load: () => Promise<T>, deps: readonly Dep[] = []): Read<T> {
  const [state, setState] = useState<{ key?: string; data?: T; error?: string; reason?: ErrorReason | undefined }>({});
  const [round, setRound] = useState(0);
  const key = JSON.stringify([...deps, round]);
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ key, data }),
      (error: unknown) => current && setState((previous) => ({ key, data: previous.data, error: messageOf(error), reason: error instanceof ApiError ? error.reason : undefined })),
    );
    return () => {
      current = false;
    };
  }, [key]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const loading = state.key !== key;
  return { data: state.data, error: loading ? undefined : state.error, reason: loading ? undefined : state.reason, loading, reload };
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
