// Keyboard shortcuts for the period (as Plausible has them), and `?` for a help overlay that lists
// them. A key typed into a field, or with a modifier, is never a shortcut.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Preset } from '../../src/core/vocabulary.js';
import { periodText } from '../lib/text/period.js';

export const PERIOD_KEYS: ReadonlyArray<readonly [string, Preset]> = [
  ['d', 'today'],
  ['e', 'yesterday'],
  ['w', '7d'],
  ['t', '30d'],
  ['q', '90d'],
  ['m', 'month'],
  ['n', 'last_month'],
  ['y', 'year'],
  ['l', '12mo'],
  ['a', 'all'],
];

function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(element.tagName));
}

export function Shortcuts({ onPeriod, onCustom }: { onPeriod(period: Preset): void; onCustom(): void }) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || document.querySelector('dialog[open]:not(.shortcuts)')) return;
      if (event.key === '?') {
        event.preventDefault();
        setOpen(true);
        return;
      }
      const key = event.key.toLowerCase();
      const preset = PERIOD_KEYS.find(([k]) => k === key);
      if (preset) {
        event.preventDefault();
        dialog.current?.close();
        onPeriod(preset[1]);
      } else if (key === 'c') {
        event.preventDefault();
        dialog.current?.close();
        onCustom();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onPeriod, onCustom]);
  useEffect(() => {
    if (open && !dialog.current?.open) dialog.current?.showModal();
  }, [open]);
  return (
    <>
      <button type="button" class="link shortcuts-hint" onClick={() => setOpen(true)} aria-keyshortcuts="?">
        {periodText.keyboardShortcuts}
      </button>
      <dialog ref={dialog} class="shortcuts" aria-labelledby="shortcuts-title" onClose={() => setOpen(false)}>
        <div class="card-head">
          <h2 id="shortcuts-title">{periodText.keyboardShortcuts}</h2>
          <button type="button" onClick={() => dialog.current?.close()}>
            {periodText.closeButton}
          </button>
        </div>
        <table>
          <tbody>
            {PERIOD_KEYS.map(([key, period]) => (
              <tr key={key}>
                <td>
                  <kbd>{key.toUpperCase()}</kbd>
                </td>
                <td>{periodText.presetNames[period]}</td>
              </tr>
            ))}
            <tr>
              <td>
                <kbd>C</kbd>
              </td>
              <td>{periodText.customRange}</td>
            </tr>
            <tr>
              <td>
                <kbd>?</kbd>
              </td>
              <td>{periodText.thisList}</td>
            </tr>
          </tbody>
        </table>
      </dialog>
    </>
  );
}
