// The view state kept in the address: reading it, writing it (a new history entry, so Back goes to
// the previous view) and following Back and Forward. Parameters that are not the view's (the
// funnel page's `version`) stay as they are.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { parseViewState, viewSearch, type ViewState } from '../../src/core/view-state.js';
import { SEGMENT_PARAM } from '../../src/core/segments.js';

const VIEW_PARAMS = ['period', 'from', 'to', 'filter', 'metric', 'comparison', SEGMENT_PARAM];

/** The address query of `next` with the current address's other parameters. */
function addressOf(next: ViewState): string {
  const query = new URLSearchParams(viewSearch(next));
  for (const [name, value] of new URLSearchParams(window.location.search)) if (!VIEW_PARAMS.includes(name)) query.append(name, value);
  const text = query.toString();
  return window.location.pathname + (text ? `?${text}` : '');
}

export function useViewState(): [ViewState, (next: ViewState) => void] {
  const [state, setState] = useState(() => parseViewState(window.location.search));
  useEffect(() => {
    const follow = () => setState(parseViewState(window.location.search));
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  const go = useCallback((next: ViewState) => {
    window.history.pushState(null, '', addressOf(next));
    setState(next);
  }, []);
  return [state, go];
}
