// Where the browser goes after sign-in (`/login?next=...`): only an address of the service's own
// origin, never another site (an open redirect would let a link to /login send a freshly signed-in
// user anywhere). The server (the redirect to /login) and the sign-in page both decide with these
// functions, so this module is pure: no Node API, no DOM; the dashboard's bundle imports it.
//
// The decision is made on the normalised URL, as the browser will read it: `/.//evil.example/`,
// `/..//evil.example`, `/%2e//evil.example` and `/a/..//evil.example` all normalise to the path
// `//evil.example`, which a browser follows to http://evil.example/. So the path kept must resolve
// back to the very same URL of this origin.

/**
 * The path (with query and fragment) of this origin that `raw` names once resolved against `origin`,
 * or `/` when it names nothing of this origin: absent, another origin (`https://x`, `//x`, `/\x`,
 * `javascript:`), unparseable, or a path that normalises to one starting with `//`.
 */
export function safeNext(raw: string | null | undefined, origin: string): string {
  if (!raw) return '/';
  let own: string;
  let url: URL;
  try {
    // Serialised as browsers do (`HTTP://Host:80` is `http://host`), so the comparison is exact.
    own = new URL(origin).origin;
    url = new URL(raw, own);
  } catch {
    return '/';
  }
  if (url.origin !== own) return '/';
  const path = url.pathname + url.search + url.hash;
  return new URL(path, own).href === url.href ? path : '/';
}

/** The sign-in address that comes back to `path` (path, query and fragment of `origin`). */
export function loginPath(path: string, origin: string): string {
  const next = safeNext(path, origin);
  return next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}
