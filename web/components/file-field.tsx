// A file field whose button and chosen file are written in the page's language: a native file input
// writes its own words ("Choose File", "No file chosen") in the browser's interface language, which
// need not be the one the reader chose. The input itself stays the control (transparent over the
// words, so that a click anywhere on them opens the browser's file dialog): its label, focus, keyboard
// and `required` are the browser's own.
import { useEffect, useId, useRef } from 'preact/hooks';
import { siteSettingsText } from '../lib/text/site-settings.js';

interface FileFieldProps {
  label: string;
  accept: string;
  /** The chosen file; its owner sets it back to undefined after sending it, and the input forgets it. */
  file: File | undefined;
  onFile(file: File | undefined): void;
}

export function FileField({ label, accept, file, onFile }: FileFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (file === undefined && input.current) input.current.value = '';
  }, [file]);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <div class="file-field">
        <input ref={input} id={id} type="file" required accept={accept} aria-describedby={`${id}-chosen`} onChange={(event) => onFile(event.currentTarget.files?.[0])} />
        <span class="button-link" aria-hidden="true">
          {siteSettingsText.chooseFile}
        </span>
        <span id={`${id}-chosen`} class="muted">
          {file?.name ?? siteSettingsText.noFileChosen}
        </span>
      </div>
    </div>
  );
}
