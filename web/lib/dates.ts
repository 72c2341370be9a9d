// Instants (epoch milliseconds or ISO text) as the page's locale writes a date and time: in the
// browser's time zone, or in a site's, where the page shows the site's events (as realtime does).
import { pageLocale } from './i18n.js';

const dateTimes = new Map<string | undefined, Intl.DateTimeFormat>();

function dateTimeIn(timeZone: string | undefined): Intl.DateTimeFormat {
  let format = dateTimes.get(timeZone);
  if (format === undefined) dateTimes.set(timeZone, (format = new Intl.DateTimeFormat(pageLocale(), { dateStyle: 'medium', timeStyle: 'short', timeZone })));
  return format;
}

export function formatInstant(value: number | string | null | undefined, timeZone?: string): string {
  if (value === null || value === undefined) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateTimeIn(timeZone).format(date);
}
