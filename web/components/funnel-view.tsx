// A funnel's view: a bar per step, named by its kind and pattern, with its visitors, the rate from
// the previous step and the visitors lost on the way; the conversion over the period against the
// previous one, and a version selector (the address's `version`; the current version without it).
// On the funnel page and through a shared link, in the frame each gives.
import type { ComponentChildren, VNode } from 'preact';
import { CountedSince } from './counted-since.js';
import { Loading } from './feedback.js';
import { ReadFailure, readState } from './read-failure.js';
import { PeriodPicker } from './period-picker.js';
import { useViewState } from '../lib/address.js';
import { changeClass, countText, formatCount, formatDay, formatRatio, pointsChange } from '../lib/format.js';
import { useRead } from '../lib/hooks.js';
import { readNoted } from '../lib/site.js';
import { queryParams, withPeriod } from '../../src/core/view-state.js';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import type { FunnelAnswer } from '../../src/core/answers.js';
import { funnelKey } from '../../src/core/answer-headers.js';
import type { SiteRow } from '../../src/core/management.js';
import { fill } from '../lib/i18n.js';
import { goalsText } from '../lib/text/goals.js';
import { periodText } from '../lib/text/period.js';

const addressVersion = () => new URLSearchParams(window.location.search).get('version') ?? '';

/** The conversion rate's change in percentage points, against the previous period's rate (said beside it). */
function RateChange({ reading }: { reading: FunnelAnswer }) {
  const change = pointsChange('conversions', reading.conversionRate, reading.previous.conversionRate);
  return (
    <div>
      <dt>{goalsText.rateChangeColumn}</dt>
      <dd class={`funnel-change ${changeClass(change)}`}>
        {change.text} <span class="muted">
          {periodText.versus.previous} ({formatRatio(reading.previous.conversionRate)})
        </span>
      </dd>
    </div>
  );
}

export function FunnelView({ site, funnelId, frame }: { site: SiteRow; funnelId: string; frame(children: ComponentChildren): VNode }) {
  const [state, go] = useViewState();
  const [version, setVersion] = useState(addressVersion);
  useEffect(() => {
    const follow = () => setVersion(addressVersion());
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  const params = queryParams(state, { filters: false });
  if (version) params.set('version', version);
  const reading = useRead(() => readNoted<FunnelAnswer>(site.id, { path: `/funnels/${encodeURIComponent(funnelId)}`, params }), [funnelId, params.toString()]);
  // The history names the steps of each version and says how many versions there are.
  const history = useRead(() => call('GET /sites/:siteId/funnels/:funnelId/versions', { params: { siteId: site.id, funnelId } }), [site.id, funnelId]);
  const latest = history.data?.version ?? reading.data?.funnel.version ?? 1;
  const chooseVersion = (value: string) => {
    const query = new URLSearchParams(window.location.search);
    if (value === String(latest)) query.delete('version');
    else query.set('version', value);
    const text = query.toString();
    window.history.pushState(null, '', window.location.pathname + (text ? `?${text}` : ''));
    setVersion(query.get('version') ?? '');
  };
  const data = reading.data;
  const first = data?.steps[0]?.visitors ?? 0;
  const definitions = history.data?.versions.find((v) => v.version === data?.funnel.version)?.steps;
  return frame(
    <>
      <div class="toolbar">
        <PeriodPicker period={state.period} timezone={site.timezone} resolved={data?.period} onChange={(period) => go(withPeriod(state, period))} />
        <div class="field version">
          <label for="version">{goalsText.versionField}</label>
          <select id="version" value={String(data?.funnel.version ?? (version || latest))} onChange={(e) => chooseVersion((e.target as HTMLSelectElement).value)}>
            {Array.from({ length: latest }, (_, i) => latest - i).map((v) => (
              <option key={v} value={String(v)}>
                {v === latest ? fill(goalsText.currentVersion, { version: v }) : String(v)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <section class="card" aria-labelledby="funnel-title" data-panel="funnel" data-state={readState(reading)} aria-busy={reading.loading}>
        <h2 id="funnel-title">{data ? data.funnel.name : goalsText.funnelWord}</h2>
        {reading.error ? (
          <ReadFailure read={reading} />
        ) : !data ? (
          <Loading />
        ) : (
          <>
            <p class="muted">
              {formatDay(data.period.from)} – {formatDay(data.period.to)}
              {fill(goalsText.stepsWithin, { minutes: formatCount(data.funnel.windowMinutes) })}
            </p>
            <CountedSince since={data.countedSince.get(funnelKey(data.funnel.id, data.funnel.version))} period={data.period} />
            <dl class="funnel-totals">
              <div>
                <dt>{goalsText.enteredLabel}</dt>
                <dd>{formatCount(data.entered)}</dd>
              </div>
              <div>
                <dt>{goalsText.completedLabel}</dt>
                <dd>{formatCount(data.completed)}</dd>
              </div>
              <div>
                <dt>{goalsText.conversionRateLabel}</dt>
                <dd>{formatRatio(data.conversionRate)}</dd>
              </div>
              <RateChange reading={data} />
            </dl>
            <ol class="funnel-steps">
              {data.steps.map((s, i) => {
                const definition = definitions?.[i];
                const before = data.steps[i - 1]?.visitors;
                const lost = before === undefined ? 0 : Math.max(0, before - s.visitors);
                return (
                  <li key={s.step}>
                    {before !== undefined && (
                      <p class="drop-off">
                        {lost === 0 ? goalsText.noVisitorLost : countText(goalsText.visitorsLost, lost, { rate: formatRatio(before > 0 ? lost / before : 0) })}
                      </p>
                    )}
                    <div class="step-head">
                      <strong>
                        {s.step}. {definition ? goalsText.kindNames[definition.kind] : goalsText.stepWord} {definition && <code>{definition.pattern}</code>}
                      </strong>
                      <span>
                        {countText(goalsText.visitorsCount, s.visitors)}
                        {s.rateFromPrevious !== null && <span class="muted">{fill(goalsText.fromStep, { rate: formatRatio(s.rateFromPrevious), step: s.step - 1 })}</span>}
                      </span>
                    </div>
                    <div class="step-bar" aria-hidden="true">
                      <span style={{ width: `${first > 0 ? (s.visitors / first) * 100 : 0}%` }} />
                    </div>
                  </li>
                );
              })}
            </ol>
          </>
        )}
      </section>
    </>,
  );
}
