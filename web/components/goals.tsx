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
import { PAGE_PATTERN_MAX_LENGTH, pagePatternHint } from './funnel-steps.js';
import { GOAL_PROPS, type GoalProps, type MatchKind } from '../../src/core/vocabulary.js';
import type { ManagedGoal } from '../../src/core/management.js';
import { fill } from '../lib/i18n.js';
import { goalEditorText } from '../lib/text/goal-editor.js';
import { namesText } from '../lib/text/names.js';

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
      if ('badLine' in parsed) throw new Error(fill(goalEditorText.badPropertyLine, { line: parsed.badLine }));
      await call('POST /manage/sites/:siteId/goals', { params: { siteId }, body: { name, kind, pattern, ...(parsed.props ? { props: parsed.props } : {}), ...(kind === 'event' && currency ? { currency } : {}) } });
      setName('');
      setPattern('');
      setPropLines('');
      setCurrency('');
      reload();
    });
  return (
    <section class="card" id="goals" aria-labelledby="goals-title">
      <h2 id="goals-title">{namesText.goalsWord}</h2>
      <WideTable
        columns={[namesText.goalWord, goalEditorText.matchesColumn, goalEditorText.deleteButton]}
        rows={goals}
        empty={<p class="muted">{goalEditorText.noGoalsYet}</p>}
        row={(goal) => (
          <tr key={goal.goalId}>
            <td>{goal.name}</td>
            <td>
              {namesText.dimensionNames[goal.kind]} <code>{goal.pattern}</code>
              {goal.props && (
                <>
                  {` ${goalEditorText.withProps} `}
                  <code>{goalPropsLabel(goal.props)}</code>
                </>
              )}
              {goal.currency && fill(goalEditorText.andRevenueIn, { currency: goal.currency })}
            </td>
            <td>
              <ConfirmButton label={fill(goalEditorText.deleteGoal, { name: goal.name })} question={fill(goalEditorText.deleteGoalQuestion, { name: goal.name })} confirmLabel={goalEditorText.deleteButton} onConfirm={() => remove.run(() => call('DELETE /manage/sites/:siteId/goals/:goalId', { params: { siteId, goalId: goal.goalId } })).then(reload)}>
                {goalEditorText.deleteButton}
              </ConfirmButton>
            </td>
          </tr>
        )}
      />
      <ErrorText message={remove.error} />
      <FormSection title={goalEditorText.newGoal} action={create} onSubmit={submit} submitLabel={goalEditorText.addGoalButton} busyLabel={goalEditorText.addingNote}>
        <TextField label={goalEditorText.goalName} required value={name} onValue={setName} />
        <SelectField<MatchKind>
          label={goalEditorText.kindField}
          value={kind}
          onValue={setKind}
          options={[
            ['page', goalEditorText.kindOptions.page],
            ['event', goalEditorText.kindOptions.event],
          ]}
        />
        <TextField
          label={goalEditorText.goalPattern}
          required
          spellcheck={false}
          maxLength={PAGE_PATTERN_MAX_LENGTH}
          placeholder={kind === 'page' ? goalEditorText.goalPatternExample : 'signup'}
          hint={kind === 'page' ? pagePatternHint() : undefined}
          value={pattern}
          onValue={setPattern}
        />
        {kind === 'event' && (
          <>
            <TextAreaField
              label={goalEditorText.propertyValues}
              spellcheck={false}
              placeholder={'plan=pro'}
              hint={fill(goalEditorText.propertyValuesHint, { max: GOAL_PROPS.maxKeys })}
              value={propLines}
              onValue={setPropLines}
            />
            <TextField
              label={goalEditorText.revenueCurrency}
              spellcheck={false}
              maxLength={3}
              placeholder="EUR"
              hint={goalEditorText.revenueCurrencyHint}
              value={currency}
              onValue={(value) => setCurrency(value.toUpperCase())}
            />
          </>
        )}
      </FormSection>
    </section>
  );
}
