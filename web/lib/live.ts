// Panels that refresh themselves: read now, then again every `everyMs` while the tab is visible,
// and at once when it becomes visible again. The last answer stays on screen while the next is
// read; a failed read keeps it and says why.
import { useEffect, useState } from 'preact/hooks';
import { messageOf } from './api.js';

export interface Live<T> {
  data?: T;
  error?: string;
}

/** Polls `read` as above; `deps` restart it (at once) when they change. */
export function useLive<T>(read: () => Promise<T>, everyMs: number, deps: unknown[]): Live<T> {
  const [state, setState] = useState<Live<T>>({});
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      clearTimeout(timer);
      try {
        const data = await read();
        if (!stopped) setState({ data });
      } catch (error) {
        if (!stopped) setState((previous) => ({ data: previous.data, error: messageOf(error) }));
      }
      if (!stopped && document.visibilityState === 'visible') timer = setTimeout(poll, everyMs);
    };
    const onVisible = () => document.visibilityState === 'visible' && poll();
    document.addEventListener('visibilitychange', onVisible);
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, deps);
  return state;
}
