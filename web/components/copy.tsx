// A block of text to copy (tracker snippet, a new API key, an invitation link) with a Copy button,
// and the frame of a secret shown only once.
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { frameText } from '../lib/text/frame.js';

export function CopyBlock({ text, label }: { text: string; label: string }) {
  const code = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>(undefined);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      // No clipboard permission (an http:// origin that is not localhost): select it for Ctrl+C.
      const selection = window.getSelection();
      if (selection && code.current) selection.selectAllChildren(code.current);
      setCopied('no');
    }
  };
  return (
    <div class="copy-block">
      <pre tabIndex={0} aria-label={label}>
        <code ref={code}>{text}</code>
      </pre>
      <div class="actions">
        <button type="button" onClick={copy}>
          {frameText.copyButton}
        </button>
        <span role="status" class="hint">
          {copied === 'yes' ? frameText.copiedNote : copied === 'no' ? frameText.selectedNote : ''}
        </span>
      </div>
    </div>
  );
}

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
