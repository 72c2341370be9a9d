// The locale of a figure whose caller names none, and the words of a change in points: the runtime's
// own and English, unless the dashboard's page sets its reader's (web/lib/i18n.ts). A module of its own, so that a page without figures carries
// only this much of them.
let current: string | undefined;
let points: string | undefined;

export const figureLocale = (): string | undefined => current;

/** The page's words of a change in percentage points (its catalogue's `pointChange`), undefined for English. */
export const figurePoints = (): string | undefined => points;

export function setFigureLocale(locale: string, pointChange?: string): void {
  current = locale;
  points = pointChange;
}
