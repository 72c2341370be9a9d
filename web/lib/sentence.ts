// A catalogue entry whose sentence holds an element (a link, a code word): each language puts its
// `{name}` placeholders where its word order wants them, so the page cannot cut the sentence itself.
import type { ComponentChildren } from 'preact';

/** `template`'s text with its `{name}` placeholders replaced by `parts` (one left without a part stays as it is). */
export function inSentence(template: string, parts: Readonly<Record<string, ComponentChildren>>): ComponentChildren[] {
  return template.split(/\{(\w+)\}/).map((piece, index) => (index % 2 === 0 ? piece : piece in parts ? parts[piece] : `{${piece}}`));
}
