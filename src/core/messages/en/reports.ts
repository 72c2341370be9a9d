// The English catalogue's words of the email reports as the account page and a site's settings
// both offer them: their names and the test report (web/components/test-report.tsx).
export const reports = {
  emailReports: 'Email reports',
  weeklyReport: 'Weekly report',
  monthlyReport: 'Monthly report',
  sendTestReport: 'Send a test report',
  sendTestReportOf: 'Send a test report of {name}',
  testReportNeedsMail: 'A test report needs mail, which this service does not send yet.',
  testReportSent: 'The report of {from} to {to} was sent to {email} at {time}.',
};
