// The tag a site's pages carry to load the tracker, as documented in docs/tracker.md.

/**
 * The `<script>` tag for a site, loading the tracker from the service at `baseUrl`; `dev` adds
 * `data-dev` (the local site's tag), which lets the tracker run on loopback pages.
 */
export function snippetTag(baseUrl: string, siteId: string, dev = false): string {
  const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<script defer src="${attr(baseUrl)}/js/t.js" data-site="${attr(siteId)}"${dev ? ' data-dev' : ''}></script>`;
}
