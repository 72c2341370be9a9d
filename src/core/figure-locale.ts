// The locale of a figure whose caller names none: the runtime's own, unless the dashboard's page
// sets its reader's (web/lib/i18n.ts). A module of its own, so that a page without figures carries
// only this much of them.
let current: string | undefined;

export const figureLocale = (): string | undefined => current;

export function setFigureLocale(locale: string): void {
  current = locale;
}
