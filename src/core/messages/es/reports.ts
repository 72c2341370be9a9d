// The catalogue's `reports` section in Spanish: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const reports: WebCatalogue['reports'] = {
  emailReports: 'Informes por correo',
  weeklyReport: 'Informe semanal',
  monthlyReport: 'Informe mensual',
  sendTestReport: 'Enviar un informe de prueba',
  sendTestReportOf: 'Enviar un informe de prueba de {name}',
  testReportNeedsMail: 'Un informe de prueba necesita correo, que este servicio aún no envía.',
  testReportSent: 'El informe del {from} al {to} se envió a {email} el {time}.',
};
