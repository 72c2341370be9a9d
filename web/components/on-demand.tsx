// A part of a page loaded when first shown (a shared link's views besides its dashboard, a site's
// imports): its code leaves the page's first load. Each module loaded so imports
// ../lib/on-demand-base.ts first (see there why).
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorText, Loading } from './feedback.js';
import { frameText } from '../lib/text/frame.js';

/** The module each loader gave: a part shown again renders at once, without a loading state. */
const loadedParts = new Map<() => Promise<unknown>, unknown>();

/**
 * `children(module)` once `load` has loaded it, the loading state before, and a network failure's
 * sentence if it cannot load (tried again when the part is shown again); `frame` wraps the two
 * latter as the part would wrap itself.
 */
export function OnDemand<M>({ load, frame = (part) => part, children }: { load: () => Promise<M>; frame?: (part: ComponentChildren) => ComponentChildren; children: (module: M) => ComponentChildren }) {
  const [loaded, setLoaded] = useState<{ module: M } | 'failed' | undefined>(() => (loadedParts.has(load) ? { module: loadedParts.get(load) as M } : undefined));
  useEffect(() => {
    if (loadedParts.has(load)) return;
    let shown = true;
    load().then(
      (module) => {
        loadedParts.set(load, module);
        if (shown) setLoaded({ module });
      },
      () => shown && setLoaded('failed'),
    );
    return () => {
      shown = false;
    };
  }, [load]);
  if (loaded === undefined) return <>{frame(<Loading />)}</>;
  if (loaded === 'failed') return <>{frame(<ErrorText message={frameText.networkError} />)}</>;
  return <>{children(loaded.module)}</>;
}
