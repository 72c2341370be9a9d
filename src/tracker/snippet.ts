// The tag a site's pages carry to load the tracker, as documented in docs/tracker.md.

/** The `<script>` tag for a site, loading the tracker from the service at `baseUrl`. */
export function snippetTag(baseUrl: string, siteId: string): string {
  const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<script defer src="${attr(baseUrl)}/js/t.js" data-site="${attr(siteId)}"></script>`;
}
