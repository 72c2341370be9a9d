// The mails in Spanish (usted): the email reports and the invitation.
import type { MailCatalogue } from '../catalogue.js';

const es: MailCatalogue = {
  subject: { weekly: '{site}: informe semanal', monthly: '{site}: informe mensual' },
  period: 'del {from} al {to}',
  heading: '{subject} de {domain}, {period}',
  label: '{name}: {value}',
  listTitle: '{title}:',
  againstPrevious: '{change} respecto al periodo anterior',
  topPages: 'Páginas principales',
  topReferrers: 'Referentes principales',
  topCountries: 'Países principales',
  none: 'ninguno',
  rowVisitors: { one: '{n} visitante', other: '{n} visitantes' },
  figure: 'Cifra',
  value: 'Valor',
  change: 'Cambio respecto al periodo anterior',
  dashboardLink: 'Abrir el panel de este periodo',
  dashboardText: 'El panel de este periodo: {url}',
  onRequest: 'Este informe se envió una sola vez, a petición: no llegarán más informes a menos que los elija en su cuenta.',
  whyReceived: 'Recibe este correo porque lo eligió para este sitio.',
  stop: 'Dejar de recibir estos informes',
  stopText: 'Dejar de recibir estos informes: {url}',
  inviteSubject: 'Invitación a {org} en svc',
  inviteBody: 'Le invitan a unirse a {org} en svc como {role}.',
  inviteOpen: 'Abra este enlace para aceptar (funciona una sola vez, hasta el {expires}):',
  inviteIgnore: 'Si no esperaba esta invitación, ignore este correo.',
};

export default es;
