// The catalogue's `reports` section in German: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const reports: WebCatalogue['reports'] = {
  emailReports: 'E-Mail-Berichte',
  weeklyReport: 'Wochenbericht',
  monthlyReport: 'Monatsbericht',
  sendTestReport: 'Testbericht senden',
  sendTestReportOf: 'Testbericht senden: {name}',
  testReportNeedsMail: 'Ein Testbericht braucht E-Mail-Versand, den dieser Dienst noch nicht bietet.',
  testReportSent: 'Der Bericht vom {from} bis {to} wurde um {time} an {email} gesendet.',
};
