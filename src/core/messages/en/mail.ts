// The English catalogue's words of the mails: the email reports (digests) and the invitation. The
// metric names are the common section's; figures and dates are written by Intl in the mail's locale.
import type { Plural } from '../language.js';

export const mail = {
  subject: { weekly: '{site}: weekly report', monthly: '{site}: monthly report' },
  /** The period of a report: its first and last day. */
  period: '{from} to {to}',
  heading: '{subject} for {domain}, {period}',
  /** A figure or a row with its value, and a list's title before its rows (French spaces its colons). */
  label: '{name}: {value}',
  listTitle: '{title}:',
  againstPrevious: '{change} against the previous period',
  topPages: 'Top pages',
  topReferrers: 'Top referrers',
  topCountries: 'Top countries',
  none: 'none',
  rowVisitors: { one: '{n} visitor', other: '{n} visitors' } satisfies Plural,
  figure: 'Figure',
  value: 'Value',
  change: 'Change against the previous period',
  dashboardLink: 'Open the dashboard of this period',
  dashboardText: 'The dashboard of this period: {url}',
  onRequest: 'This report was sent once, on request: no report follows unless you choose them in your account.',
  whyReceived: 'You receive this because you chose it for this site.',
  stop: 'Stop these reports',
  stopText: 'Stop these reports: {url}',
  inviteSubject: 'You are invited to {org} on svc',
  inviteBody: 'You are invited to join {org} on svc as {role}.',
  inviteOpen: 'Open this link to accept (it works once, until {expires}):',
  inviteIgnore: 'If you did not expect this invitation, ignore this mail.',
};
