// Reading figures for a view: the answer is tagged with the view it belongs to, so a part is
// "loading" from the very render in which its view changes (not one effect later), and the last
// answer stays on screen, dimmed, until the next arrives.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, messageOf } from './api.js';
import type { ErrorReason } from '../../src/core/errors.js';

export interface Read<T> {
  /** The latest answer, possibly of an earlier view while `loading`. */
  data: T | undefined;
  /** The failure of the current view. */
  error: string | undefined;
  /** Its reason, when the server gave one. */
  reason?: ErrorReason | undefined;
  loading: boolean;
}

/** Runs `load` whenever `key` (what the read depends on, as text) changes. */
export function useRead<T>(load: () => Promise<T>, key: string): Read<T> {
  const [state, setState] = useState<{ key?: string; data?: T; error?: string; reason?: ErrorReason | undefined }>({});
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
  const loading = state.key !== key;
  return { data: state.data, error: loading ? undefined : state.error, reason: loading ? undefined : state.reason, loading };
}
