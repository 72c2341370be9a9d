// A catalogue template whose placeholders stand for markup (a name in bold, a link) rather than
// text: fill() (./i18n.ts) makes a string, this the nodes, so the words around the markup stay the
// translation's in its own order.
import type { ComponentChildren } from 'preact';

/** `template` split at its `{name}` placeholders, each replaced by `parts[name]` (a placeholder without one stays as written). */
export function fillNodes(template: string, parts: Readonly<Record<string, ComponentChildren>>): ComponentChildren[] {
  return template.split(/\{(\w+)\}/).map((piece, index) => (index % 2 === 0 ? piece : piece in parts ? parts[piece] : `{${piece}}`));
}
