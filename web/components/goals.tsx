// A site's goals in its settings: list, new goal (an event goal may require custom property values,
// written one `key=value` a line, and may be a revenue goal with a currency), delete.
import { useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useAction } from '../lib/hooks.js';
import { ConfirmButton } from './confirm.js';
import { ErrorText } from './feedback.js';
import { SelectField, TextAreaField, TextField } from './fields.js';
import { goalPropsLabel } from '../lib/labels.js';
import { FormSection } from './form-section.js';
import { WideTable } from './table.js';
import { PAGE_PATTERN_HINT, PAGE_PATTERN_MAX_LENGTH } from './funnel-steps.js';
import { GOAL_PROPS, type GoalProps, type MatchKind } from '../../src/core/vocabulary.js';
import type { ManagedGoal } from '../../src/core/management.js';

/**
 * The property values of the form's lines `key=value` (the key up to the first `=`, both trimmed;
 * blank lines skipped), or the first line that is not one.
 */
export function parsePropLines(text: string): { props: GoalProps | null } | { badLine: string } {
  const props: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const at = line.indexOf('=');
    const key = at < 0 ? '' : line.slice(0, at).trim();
    if (key === '') return { badLine: line };
    props[key] = line.slice(at + 1).trim();
  }
  return { props: Object.keys(props).length > 0 ? props : null };
}


export function Goals({ siteId, goals, reload }: { siteId: string; goals: ManagedGoal[]; reload(): void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<MatchKind>('page');
  const [pattern, setPattern] = useState('');
  const [propLines, setPropLines] = useState('');
  const [currency, setCurrency] = useState('');
  const create = useAction();
  const remove = useAction();
  const submit = () =>
    create.run(async () => {
      const parsed = kind === 'event' ? parsePropLines(propLines) : { props: null };
      if ('badLine' in parsed) throw new Error(`Property values are lines key=value; “${parsed.badLine}” is not one.`);
      await call('POST /manage/sites/:siteId/goals', { params: { siteId }, body: { name, kind, pattern, ...(parsed.props ? { props: parsed.props } : {}), ...(kind === 'event' && currency ? { currency } : {}) } });
      setName('');
      setPattern('');
      setPropLines('');
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
              {goal.props && (
                <>
                  {' '}
                  with <code>{goalPropsLabel(goal.props)}</code>
                </>
              )}
              {goal.currency && <>, revenue in {goal.currency}</>}
            </td>
            <td>
              <ConfirmButton label={`Delete goal ${goal.name}`} question={`Delete the goal “${goal.name}”?`} confirmLabel="Delete" onConfirm={() => remove.run(() => call('DELETE /manage/sites/:siteId/goals/:goalId', { params: { siteId, goalId: goal.goalId } })).then(reload)}>
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
          <>
            <TextAreaField
              label="Property values (optional)"
              spellcheck={false}
              placeholder={'plan=pro'}
              hint={`One key=value a line, at most ${GOAL_PROPS.maxKeys}: the event must carry them all.`}
              value={propLines}
              onValue={setPropLines}
            />
            <TextField
              label="Revenue currency (optional)"
              spellcheck={false}
              maxLength={3}
              placeholder="EUR"
              hint="An ISO 4217 code such as EUR or USD makes this a revenue goal: it sums the revenue its events carry in that currency."
              value={currency}
              onValue={(value) => setCurrency(value.toUpperCase())}
            />
          </>
        )}
      </FormSection>
    </section>
  );
}
