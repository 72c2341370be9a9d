/** The tag of SPEC.md for a site, loading the tracker from the server at `url`. */
export function snippetTag(url: string, siteId: string): string {
  const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<script defer src="${attr(url)}/js/t.js" data-site="${attr(siteId)}"></script>`;
}
