// Instants (epoch milliseconds or ISO text) as the reader's locale writes a date and time.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatInstant(value: number | string | null | undefined): string {
  if (value === null || value === undefined) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateTime.format(date);
}
