// A site's alert rules in its settings: list, new rule (a webhook, and optionally email addresses
// mailed beside it), `Send test`, the delivery history (which
// refreshes itself while it is open), delete. Statuses and refused URLs are said in words.
import { useState } from 'preact/hooks';
import { ApiError } from '../lib/api.js';
import { call } from '../lib/client.js';
import { formatInstant } from '../lib/dates.js';
import { useAction, useRead } from '../lib/hooks.js';
import { useLive } from '../lib/live.js';
import { refusalInWords, statusInWords } from '../lib/webhook-status.js';
import { ConfirmButton } from './confirm.js';
import { ErrorText, LoadState, Notice } from './feedback.js';
import { SelectField, TextField } from './fields.js';
import { FormSection } from './form-section.js';
import { lines, LinesField } from './shared-links.js';
import { WideTable } from './table.js';
import type { ManagedAlertRule, ManagedGoal } from '../../src/core/management.js';
import { RULE_TYPES, type RuleType } from '../../src/core/vocabulary.js';
import { countText } from '../lib/format.js';
import { fill } from '../lib/i18n.js';
import { siteSettingsText } from '../lib/text/site-settings.js';

/** What the form offers of a goal, for a goal rule. */
export type GoalOption = Pick<ManagedGoal, 'goalId' | 'name'>;

function describe(rule: ManagedAlertRule, goals: GoalOption[]): string {
  const entry = { spike: siteSettingsText.spikeRule, drop: siteSettingsText.dropRule, silence: siteSettingsText.silenceRule, goal: siteSettingsText.goalRule }[rule.type];
  const goal = rule.type === 'goal' ? (goals.find((g) => g.goalId === rule.goalId)?.name ?? String(rule.goalId)) : '';
  return countText(entry, rule.threshold, { goal });
}

function statusClass(status: string): string {
  if (status === 'succeeded') return 'badge ok';
  if (status === 'pending') return 'badge';
  return 'badge bad';
}

const HISTORY_REFRESH_MS = 5000;

/** The rule's deliveries, read again every few seconds while shown; `round` reads them at once. */
function History({ ruleId, round, timeZone }: { ruleId: number; round: number; timeZone: string }) {
  const history = useLive(() => call('GET /manage/alerts/:ruleId/history', { params: { ruleId } }), HISTORY_REFRESH_MS, [ruleId, round]);
  return (
    <LoadState state={{ ...history, data: history.data, error: history.data ? undefined : history.error, loading: !history.data }}>
      {({ deliveries }) => (
        <WideTable
          label={siteSettingsText.deliveryHistory}
          columns={[fill(siteSettingsText.queuedAt, { zone: timeZone }), siteSettingsText.kindColumn, siteSettingsText.statusColumn, siteSettingsText.attemptsColumn]}
          rows={deliveries}
          empty={<p class="muted">{siteSettingsText.noDeliveries}</p>}
          row={(delivery) => (
            <tr key={delivery.id}>
              <td>{formatInstant(delivery.createdAt, timeZone)}</td>
              <td>{delivery.test ? siteSettingsText.testKind : siteSettingsText.alertKind}</td>
              <td>
                <span class={statusClass(delivery.status)} title={delivery.status}>
                  {statusInWords(delivery.status)}
                </span>
              </td>
              <td class="muted">{delivery.attempts.map((attempt) => `${formatInstant(attempt.at, timeZone)}: ${statusInWords(attempt.status)}`).join('; ')}</td>
            </tr>
          )}
        />
      )}
    </LoadState>
  );
}

function RuleItem({ rule, goals, reload, timeZone }: { rule: ManagedAlertRule; goals: GoalOption[]; reload(): void; timeZone: string }) {
  const [round, setRound] = useState(0);
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  const test = useAction();
  const remove = useAction();
  const sendTest = () =>
    test.run(() => call('POST /manage/alerts/:ruleId/test', { params: { ruleId: rule.id } })).then((queued) => {
      setSent(queued);
      if (queued) setOpen(true);
      setRound((n) => n + 1);
    });
  return (
    <li class="rule">
      <div class="card-head">
        <h3>{describe(rule, goals)}</h3>
        <span class="actions">
          <button type="button" aria-label={fill(siteSettingsText.sendTestOf, { id: rule.id })} onClick={sendTest} disabled={test.busy}>
            {siteSettingsText.sendTestButton}
          </button>
          <ConfirmButton label={fill(siteSettingsText.deleteRuleOf, { id: rule.id })} question={siteSettingsText.deleteRuleQuestion} confirmLabel={siteSettingsText.deleteButton} onConfirm={() => remove.run(() => call('DELETE /manage/alerts/:ruleId', { params: { ruleId: rule.id } })).then(reload)}>
            {siteSettingsText.deleteButton}
          </ConfirmButton>
        </span>
      </div>
      <p class="muted url">{rule.url}</p>
      {rule.emails.length > 0 && <p class="muted">{fill(siteSettingsText.mailedTo, { emails: rule.emails.join(', ') })}</p>}
      <ErrorText message={test.error ?? remove.error} />
      {sent && <Notice>{siteSettingsText.testQueued}</Notice>}
      <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>{siteSettingsText.deliveryHistory}</summary>
        {open && <History ruleId={rule.id} round={round} timeZone={timeZone} />}
      </details>
    </li>
  );
}

/** `timeZone`: the site's, in which deliveries' times show (as the site's realtime view shows its events). */
export function AlertRules({ siteId, goals, timeZone }: { siteId: string; goals: GoalOption[]; timeZone: string }) {
  const rules = useRead(() => call('GET /manage/sites/:siteId/alerts', { params: { siteId } }), [siteId]);
  const [type, setType] = useState<RuleType>('spike');
  const [threshold, setThreshold] = useState('100');
  const [goalId, setGoalId] = useState('');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [emails, setEmails] = useState('');
  const create = useAction();
  const submit = () =>
    create.run(async () => {
      const body = { type, threshold: Number(threshold), url, secret, emails: lines(emails), ...(type === 'goal' ? { goalId: Number(goalId) } : {}) };
      try {
        await call('POST /manage/sites/:siteId/alerts', { params: { siteId }, body });
      } catch (error) {
        // The message of this refusal starts with the URL rule it breaks (`rejected:<rule>`), as a delivery's status does.
        const words = error instanceof ApiError && error.reason === 'REJECTED_INVALID_WEBHOOK_URL' ? refusalInWords(error.message) : undefined;
        throw words === undefined ? error : new Error(fill(siteSettingsText.urlRefused, { why: words }));
      }
      setUrl('');
      setSecret('');
      setEmails('');
      rules.reload();
    });
  return (
    <section class="card" id="alerts" aria-labelledby="alerts-title">
      <h2 id="alerts-title">{siteSettingsText.alertRulesTitle}</h2>
      <p class="muted">{siteSettingsText.alertRulesHint}</p>
      <LoadState state={rules}>
        {({ alerts }) =>
          alerts.length === 0 ? (
            <p class="muted">{siteSettingsText.noAlertRules}</p>
          ) : (
            <ul class="plain">
              {alerts.map((rule) => (
                <RuleItem key={rule.id} rule={rule} goals={goals} reload={rules.reload} timeZone={timeZone} />
              ))}
            </ul>
          )
        }
      </LoadState>
      <FormSection title={siteSettingsText.newRule} label={siteSettingsText.newAlertRule} action={create} onSubmit={submit} submitLabel={siteSettingsText.addRule} busyLabel={siteSettingsText.adding} hint={<p class="hint">{siteSettingsText.ruleWhen[type]}</p>}>
        <SelectField<RuleType> label={siteSettingsText.ruleTypeLabel} value={type} onValue={setType} options={RULE_TYPES.map((t): [RuleType, string] => [t, siteSettingsText.ruleTypes[t]])} />
        <TextField label={siteSettingsText.thresholdLabel} type="number" min={0} required value={threshold} onValue={setThreshold} />
        {type === 'goal' && (
          <SelectField
            label={siteSettingsText.ruleTypes.goal}
            value={goalId}
            onValue={setGoalId}
            options={[['', siteSettingsText.chooseGoal], ...goals.map((goal): [string, string] => [String(goal.goalId), goal.name])]}
          />
        )}
        <TextField label={siteSettingsText.webhookUrl} type="url" required placeholder={siteSettingsText.webhookUrlExample} spellcheck={false} value={url} onValue={setUrl} />
        <TextField label={siteSettingsText.signingSecret} type="password" autoComplete="off" required value={secret} onValue={setSecret} hint={siteSettingsText.secretHint} />
        <LinesField label={siteSettingsText.emailAddresses} hint={siteSettingsText.emailAddressesHint} value={emails} onValue={setEmails} />
      </FormSection>
    </section>
  );
}
