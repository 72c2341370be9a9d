// The catalogue's entry names the dashboard's build may shorten (esbuild's mangleProps): an entry is
// named twice in the bundle (where the English declares it, where a page reads it), and names such as
// `noCustomProperty` cost more than short ones. Only a name that no other file of the build spells
// is shortened (the API's fields, DOM properties and strings that name an entry keep theirs); the
// language chunks are of the same build, so they carry the same short names.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The files of the catalogue and the modules that read its sections. */
const CATALOGUE = /(^|\/)(src\/core\/messages\/|web\/lib\/text\/)/;

/** The top-level entries of the English sections (`  name:` in src/core/messages/en/). */
function entryNames(root) {
  const dir = join(root, 'src/core/messages/en');
  const names = new Set();
  for (const file of readdirSync(dir)) for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/^ {2}(\w+):/gm)) names.add(m[1]);
  return names;
}

/**
 * A pattern of the entry names that the build's other inputs (`inputs`: paths from an esbuild
 * metafile, relative to `root`) never spell: a section's reads (`dashboardText.name`) aside.
 */
export function shortenable(root, inputs) {
  const names = entryNames(root);
  for (const input of inputs) {
    if (CATALOGUE.test(input) || !/\.[cm]?[jt]sx?$/.test(input)) continue;
    // Whole-line comments and a section's reads spell no name the bundle keeps.
    const text = readFileSync(join(root, input), 'utf8')
      .replace(/^\s*(\/\/|\/\*|\*).*$/gm, '')
      .replace(/\b\w+Text\.\w+/g, '');
    for (const word of text.match(/\w+/g) ?? []) names.delete(word);
  }
  return names.size === 0 ? undefined : new RegExp(`^(${[...names].join('|')})$`);
}
