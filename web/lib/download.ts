// Hands a text to the browser as a file download (no server round trip: the CSV is built from the
// figures the page reads).
export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name part from free text, its letters in any script kept: `/blog/a b` -> `blog-a-b`, `Gerät` -> `Gerät`. */
export function fileSlug(text: string): string {
  return text.normalize('NFC').replace(/[^\p{L}\p{M}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '') || 'all';
}
