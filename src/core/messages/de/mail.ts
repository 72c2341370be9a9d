// The mails in German (formal address): the email reports and the invitation.
import type { MailCatalogue } from '../catalogue.js';

const de: MailCatalogue = {
  subject: { weekly: '{site}: Wochenbericht', monthly: '{site}: Monatsbericht' },
  period: '{from} bis {to}',
  heading: '{subject} für {domain}, {period}',
  label: '{name}: {value}',
  listTitle: '{title}:',
  againstPrevious: '{change} gegenüber dem Vorzeitraum',
  topPages: 'Top-Seiten',
  topReferrers: 'Top-Verweise',
  topCountries: 'Top-Länder',
  none: 'keine',
  rowVisitors: { one: '{n} Besucher', other: '{n} Besucher' },
  figure: 'Kennzahl',
  value: 'Wert',
  change: 'Veränderung gegenüber dem Vorzeitraum',
  dashboardLink: 'Das Dashboard dieses Zeitraums öffnen',
  dashboardText: 'Das Dashboard dieses Zeitraums: {url}',
  onRequest: 'Dieser Bericht wurde einmalig auf Anfrage gesendet: Weitere Berichte folgen nur, wenn Sie sie in Ihrem Konto auswählen.',
  whyReceived: 'Sie erhalten diese E-Mail, weil Sie sie für diese Website ausgewählt haben.',
  stop: 'Diese Berichte abbestellen',
  stopText: 'Diese Berichte abbestellen: {url}',
  inviteSubject: 'Einladung zu {org} auf svc',
  inviteBody: 'Sie sind eingeladen, {org} auf svc als {role} beizutreten.',
  inviteOpen: 'Öffnen Sie diesen Link, um die Einladung anzunehmen (er funktioniert einmal, bis {expires}):',
  inviteIgnore: 'Falls Sie diese Einladung nicht erwartet haben, ignorieren Sie diese E-Mail.',
};

export default de;
