// Where the browser goes after sign-in: only a path of this origin, never another site (an open
// redirect would let a link to /login send a freshly signed-in user anywhere).

const BASE = 'http://origin.invalid';

/**
 * The same-origin path (with query and fragment) that `raw` names, or `/` when it names nothing
 * usable: absent, absolute (`https://x`), protocol-relative (`//x`, `/\x`), or with control characters.
 */
export function safeNext(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return '/';
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE) return '/';
  return url.pathname + url.search + url.hash;
}

/** The sign-in address that comes back to `path` (path, query and fragment of this origin). */
export function loginPath(path: string): string {
  const next = safeNext(path);
  return next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}
