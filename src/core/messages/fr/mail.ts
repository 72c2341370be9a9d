// The mails in French (vouvoiement): the email reports and the invitation.
import type { MailCatalogue } from '../catalogue.js';

const fr: MailCatalogue = {
  subject: { weekly: '{site} : rapport hebdomadaire', monthly: '{site} : rapport mensuel' },
  period: 'du {from} au {to}',
  heading: '{subject} pour {domain}, {period}',
  label: '{name} : {value}',
  listTitle: '{title} :',
  againstPrevious: '{change} par rapport à la période précédente',
  topPages: 'Pages principales',
  topReferrers: 'Principaux référents',
  topCountries: 'Principaux pays',
  none: 'aucun',
  rowVisitors: { one: '{n} visiteur', other: '{n} visiteurs' },
  figure: 'Indicateur',
  value: 'Valeur',
  change: 'Évolution par rapport à la période précédente',
  dashboardLink: 'Ouvrir le tableau de bord de cette période',
  dashboardText: 'Le tableau de bord de cette période : {url}',
  onRequest: "Ce rapport a été envoyé une seule fois, à votre demande : aucun autre ne suivra à moins que vous ne les choisissiez dans votre compte.",
  whyReceived: 'Vous recevez ce message parce que vous l’avez choisi pour ce site.',
  stop: 'Ne plus recevoir ces rapports',
  stopText: 'Ne plus recevoir ces rapports : {url}',
  inviteSubject: 'Invitation à rejoindre {org} sur svc',
  inviteBody: 'Vous êtes invité à rejoindre {org} sur svc en tant que {role}.',
  inviteOpen: "Ouvrez ce lien pour accepter (il ne fonctionne qu'une fois, jusqu'au {expires}) :",
  inviteIgnore: "Si vous n'attendiez pas cette invitation, ignorez ce message.",
};

export default fr;
