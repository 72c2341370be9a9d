// `Send a test report`: a site's report of last week mailed to the signed-in user now (no subscription
// needed, none changed), on /account beside each site's choices and in the site's `Reports` settings.
// Without mail set up the button is disabled and a sentence says why.
import { useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { formatInstant } from '../lib/dates.js';
import { useAction } from '../lib/hooks.js';
import { ErrorText, Notice } from './feedback.js';
import type { SentReport } from '../../src/core/management.js';
import { fill } from '../lib/i18n.js';
import { reportsText } from '../lib/text/reports.js';

export function TestReport({ siteId, name, configured }: { siteId: string; name: string; configured: boolean }) {
  const [sent, setSent] = useState<SentReport | undefined>(undefined);
  const send = useAction();
  const run = () =>
    send.run(async () => {
      setSent(undefined);
      setSent(await call('POST /account/digests/:siteId/send', { params: { siteId }, body: {} }));
    });
  return (
    <div class="test-report">
      <button type="button" aria-label={fill(reportsText.sendTestReportOf, { name })} onClick={run} disabled={send.busy || !configured}>
        {reportsText.sendTestReport}
      </button>
      {!configured && <p class="muted">{reportsText.testReportNeedsMail}</p>}
      {sent && (
        <Notice>{fill(reportsText.testReportSent, { from: sent.from, to: sent.to, email: sent.email, time: formatInstant(sent.sentAt) })}</Notice>
      )}
      <ErrorText message={send.error} />
    </div>
  );
}
