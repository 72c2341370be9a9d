// What the language tests look for on a translated page: the catalogue's English entries that its
// translation words differently, wherever a person reads or hears them.
import type { Page } from 'playwright-core';

/** Every string of an English section whose translation in `catalogue` differs: text that must not show on a page in that language. */
export function englishOnly(english: object, translated: object, into = new Set<string>()): Set<string> {
  for (const [key, value] of Object.entries(english)) {
    const other = (translated as Record<string, unknown>)[key];
    if (typeof value === 'string') {
      if (value !== other && value.trim() !== '' && !value.includes('{')) into.add(value.trim());
    } else englishOnly(value as object, other as object, into);
  }
  return into;
}

/** The text nodes, accessible names, titles, image texts and placeholders of the page that are English entries of the catalogue. */
export async function englishOn(page: Page, english: Set<string>): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) found.push(node.textContent!.trim());
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], [alt], [placeholder]'))) for (const name of ['aria-label', 'title', 'alt', 'placeholder']) found.push(el.getAttribute(name) ?? '');
    return found;
  });
  return [...new Set(texts.filter((text) => english.has(text)))];
}
