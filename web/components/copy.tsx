// A block of text to copy (tracker snippet, a new API key, an invitation link) with a Copy button.
import { useRef, useState } from 'preact/hooks';
import { frameText } from '../lib/text/frame.js';

export function CopyBlock({ text, label }: { text: string; label: string }) {
  const code = useRef<HTMLElement>(null);
  // The last press's outcome, written in the page's language of that moment.
  const [note, setNote] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setNote(frameText.copiedNote);
    } catch {
      // No clipboard permission (an http:// origin that is not localhost): select it for Ctrl+C.
      const selection = window.getSelection();
      if (selection && code.current) selection.selectAllChildren(code.current);
      setNote(frameText.selectedNote);
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
          {note}
        </span>
      </div>
    </div>
  );
}
