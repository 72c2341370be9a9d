// The catalogue's `reports` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const reports: WebCatalogue['reports'] = {
  emailReports: 'Rapports par e-mail',
  weeklyReport: 'Rapport hebdomadaire',
  monthlyReport: 'Rapport mensuel',
  sendTestReport: 'Envoyer un rapport de test',
  sendTestReportOf: 'Envoyer un rapport de test de {name}',
  testReportNeedsMail: 'Un rapport de test nécessite l’envoi d’e-mails, que ce service n’assure pas encore.',
  testReportSent: 'Le rapport du {from} au {to} a été envoyé à {email} le {time}.',
};
