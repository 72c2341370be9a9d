// A site's funnels in its settings: list with steps, new funnel, step editing (a new version), delete.
import { useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useAction, useRead } from '../lib/hooks.js';
import { ConfirmButton } from './confirm.js';
import { ErrorText, LoadState } from './feedback.js';
import { TextField } from './fields.js';
import { StepsEditor } from './funnel-steps.js';
import type { FunnelDefinition } from '../../src/core/management.js';
import { countText } from '../lib/format.js';
import { fill } from '../lib/i18n.js';
import { goalEditorText } from '../lib/text/goal-editor.js';
import { namesText } from '../lib/text/names.js';

function FunnelItem({ siteId, funnel, reload }: { siteId: string; funnel: FunnelDefinition; reload(): void }) {
  const [editing, setEditing] = useState(false);
  const save = useAction();
  const remove = useAction();
  const params = { siteId, funnelId: funnel.id };
  return (
    <li class="funnel">
      <div class="card-head">
        <h3>
          <a href={`/sites/${encodeURIComponent(siteId)}/funnels/${funnel.id}`}>{funnel.name}</a>{' '}
          <span class="badge">{fill(goalEditorText.versionBadge, { version: funnel.version })}</span>
        </h3>
        <span class="actions">
          {!editing && (
            <button type="button" aria-label={fill(goalEditorText.editStepsOf, { name: funnel.name })} onClick={() => setEditing(true)}>
              {goalEditorText.editSteps}
            </button>
          )}
          <ConfirmButton label={fill(goalEditorText.deleteFunnel, { name: funnel.name })} question={fill(goalEditorText.deleteFunnelQuestion, { name: funnel.name })} confirmLabel={goalEditorText.deleteButton} onConfirm={() => remove.run(() => call('DELETE /manage/sites/:siteId/funnels/:funnelId', { params })).then(reload)}>
            {goalEditorText.deleteButton}
          </ConfirmButton>
        </span>
      </div>
      <p class="muted">{countText(goalEditorText.withinMinutes, funnel.windowMinutes)}</p>
      {editing ? (
        <StepsEditor
          name={fill(goalEditorText.stepsOf, { name: funnel.name })}
          initial={funnel.steps}
          submitLabel={goalEditorText.saveAsVersion}
          busy={save.busy}
          error={save.error}
          onCancel={() => setEditing(false)}
          onSave={(steps) =>
            save.run(() => call('PUT /manage/sites/:siteId/funnels/:funnelId/steps', { params, body: { steps } })).then((saved) => {
              if (!saved) return;
              setEditing(false);
              reload();
            })
          }
        />
      ) : (
        <ol class="muted">
          {funnel.steps.map((step, index) => (
            <li key={index}>
              {namesText.dimensionNames[step.kind]} <code>{step.pattern}</code>
            </li>
          ))}
        </ol>
      )}
      <ErrorText message={remove.error} />
    </li>
  );
}

export function Funnels({ siteId }: { siteId: string }) {
  const funnels = useRead(() => call('GET /manage/sites/:siteId/funnels', { params: { siteId } }), [siteId]);
  const [name, setName] = useState('');
  const [windowMinutes, setWindowMinutes] = useState('60');
  const [round, setRound] = useState(0);
  const create = useAction();
  return (
    <section class="card" id="funnels" aria-labelledby="funnels-title">
      <h2 id="funnels-title">{goalEditorText.funnelsHeading}</h2>
      <p class="muted">{goalEditorText.versionsNote}</p>
      <LoadState state={funnels}>
        {({ funnels: rows }) =>
          rows.length === 0 ? (
            <p class="muted">{goalEditorText.noFunnelsYet}</p>
          ) : (
            <ul class="plain">
              {rows.map((funnel) => (
                <FunnelItem key={`${funnel.id}-${funnel.version}`} siteId={siteId} funnel={funnel} reload={funnels.reload} />
              ))}
            </ul>
          )
        }
      </LoadState>
      <h3>{goalEditorText.newFunnel}</h3>
      <div class="form inline">
        <TextField label={goalEditorText.funnelName} required value={name} onValue={setName} />
        <TextField label={goalEditorText.windowField} type="number" min={1} required value={windowMinutes} onValue={setWindowMinutes} hint={goalEditorText.windowHint} />
      </div>
      <StepsEditor
        key={round}
        name={goalEditorText.newFunnelSteps}
        initial={[
          { kind: 'page', pattern: '' },
          { kind: 'page', pattern: '' },
        ]}
        submitLabel={goalEditorText.createFunnel}
        busy={create.busy}
        error={create.error}
        onSave={(steps) =>
          create.run(() => call('POST /manage/sites/:siteId/funnels', { params: { siteId }, body: { name, windowMinutes: Number(windowMinutes), steps } })).then((created) => {
            if (!created) return;
            setName('');
            setRound(round + 1);
            funnels.reload();
          })
        }
      />
    </section>
  );
}
