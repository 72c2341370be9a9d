// The frame of a secret shown only once, a module apart from ./copy.tsx so that the pages that copy
// only a snippet (the site's first event) do not bundle it.
import type { ComponentChildren } from 'preact';
import { frameText } from '../lib/text/frame.js';
import { CopyBlock } from './copy.js';

/** A secret the server answers once (an API key, an invitation link): what it is, the text to copy, `Done`. */
export function ShownOnce({ region, text, label, onDone, children }: { region: string; text: string; label: string; onDone(): void; children: ComponentChildren }) {
  return (
    <div class="secret" role="region" aria-label={region}>
      <p>{children}</p>
      <CopyBlock text={text} label={label} />
      <button type="button" onClick={onDone}>
        {frameText.doneButton}
      </button>
    </div>
  );
}
