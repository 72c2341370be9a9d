// A site's goals in its settings: list, new goal (a revenue goal with a currency), delete.
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useAction } from '../lib/hooks.js';
import { ConfirmButton } from './confirm.js';
import { ErrorText } from './feedback.js';
import { SelectField, TextField } from './fields.js';
import { FormSection } from './form-section.js';
import { WideTable } from './table.js';
import { PAGE_PATTERN_HINT, PAGE_PATTERN_MAX_LENGTH } from './funnel-steps.js';
import type { ManagedGoal, MatchKind } from '../../src/core/vocabulary.js';

export function Goals({ siteId, goals, reload }: { siteId: string; goals: ManagedGoal[]; reload(): void }) {
  const path = `/manage/sites/${encodeURIComponent(siteId)}/goals`;
  const [name, setName] = useState('');
  const [kind, setKind] = useState<MatchKind>('page');
  const [pattern, setPattern] = useState('');
  const [currency, setCurrency] = useState('');
  const create = useAction();
  const remove = useAction();
  const submit = () =>
    create.run(async () => {
      await api('POST', path, kind === 'event' && currency ? { name, kind, pattern, currency } : { name, kind, pattern });
      setName('');
      setPattern('');
      setCurrency('');
      reload();
    });
  return (
    <section class="card" id="goals" aria-labelledby="goals-title">
      <h2 id="goals-title">Goals</h2>
      <WideTable
        columns={['Goal', 'Matches', 'Delete']}
        rows={goals}
        empty={<p class="muted">No goals yet.</p>}
        row={(goal) => (
          <tr key={goal.goalId}>
            <td>{goal.name}</td>
            <td>
              {goal.kind === 'page' ? 'Page' : 'Event'} <code>{goal.pattern}</code>
              {goal.currency && <>, revenue in {goal.currency}</>}
            </td>
            <td>
              <ConfirmButton label={`Delete goal ${goal.name}`} question={`Delete the goal “${goal.name}”?`} confirmLabel="Delete" onConfirm={() => remove.run(() => api('DELETE', `${path}/${goal.goalId}`)).then(reload)}>
                Delete
              </ConfirmButton>
            </td>
          </tr>
        )}
      />
      <ErrorText message={remove.error} />
      <FormSection title="New goal" action={create} onSubmit={submit} submitLabel="Add goal" busyLabel="Adding…">
        <TextField label="Goal name" required value={name} onValue={setName} />
        <SelectField<MatchKind>
          label="Kind"
          value={kind}
          onValue={setKind}
          options={[
            ['page', 'Page visited'],
            ['event', 'Event sent'],
          ]}
        />
        <TextField
          label="Goal pattern"
          required
          spellcheck={false}
          maxLength={PAGE_PATTERN_MAX_LENGTH}
          placeholder={kind === 'page' ? '/thanks or /blog/**' : 'signup'}
          hint={kind === 'page' ? PAGE_PATTERN_HINT : undefined}
          value={pattern}
          onValue={setPattern}
        />
        {kind === 'event' && (
          <TextField
            label="Revenue currency (optional)"
            spellcheck={false}
            maxLength={3}
            placeholder="EUR"
            hint="An ISO 4217 code such as EUR or USD makes this a revenue goal: it sums the revenue its events carry in that currency."
            value={currency}
            onValue={(value) => setCurrency(value.toUpperCase())}
          />
        )}
      </FormSection>
    </section>
  );
}
