// A site's goals with their conversions and the change of their conversions (percent), unique
// conversions, conversion rate and the change of the rate (percentage points, against the previous
// period's rate, read apart), and revenue goals' revenue, average and currency (labelled with the day each is counted since when that day falls inside the period; each
// goal a link to the dashboard filtered by it), and its funnels (each a link to
// its view): on the goals page and through a shared link, in the frame each gives.
import type { ComponentChildren, VNode } from 'preact';
import { CountedSince } from './counted-since.js';
import { ErrorText, Loading } from './feedback.js';
import { ReadFailure } from './read-failure.js';
import { PeriodPicker } from './period-picker.js';
import { WideTable } from './table.js';
import { useViewState } from '../lib/address.js';
import { changeClass, countText, formatAmount, formatCount, formatDay, formatRatio, percentChange, pointsChange, type KpiChange } from '../lib/format.js';
import { useRead } from '../lib/hooks.js';
import { readNoted, readSite } from '../lib/site.js';
import { previousPeriod } from '../../src/core/period.js';
import { goalPropsLabel } from '../lib/labels.js';
import { queryParams, withPeriod, type ViewState } from '../../src/core/view-state.js';
import { GOAL_DIMENSION, makeFilter } from '../../src/core/vocabulary.js';
import type { FunnelSummary, GoalResult, GoalRevenue, GoalsAnswer } from '../../src/core/answers.js';
import { goalKey } from '../../src/core/answer-headers.js';
import type { SiteRow } from '../../src/core/management.js';
import { fill } from '../lib/i18n.js';
import { goalsText } from '../lib/text/goals.js';
import { namesText } from '../lib/text/names.js';

/** Where the view's links lead: the dashboard of the same period filtered by a goal, a funnel's page. */
export interface GoalsLinks {
  dashboard(state: ViewState): string;
  funnel(funnelId: number): string;
}

/** A goal's name, a link to the dashboard of the same period filtered by the goal (`goal:<id>`). */
const GoalName = ({ goal, links, state }: { goal: GoalResult; links: GoalsLinks; state: ViewState }) => (
  <a href={links.dashboard({ ...state, filters: [makeFilter(GOAL_DIMENSION, 'is', String(goal.goalId))] })}>{goal.name}</a>
);

/** The revenue goals' columns, named when the table renders (in the page's language). */
const revenueColumns = () => [{ label: goalsText.revenueColumn, numeric: true }, { label: goalsText.averageRevenue, numeric: true }, goalsText.currencyColumn];

/** A revenue goal's total, average and currency (dashes for other goals); conversions in another currency said in the total's title. */
function RevenueCells({ revenue }: { revenue: GoalRevenue | undefined }) {
  if (!revenue) {
    return (
      <>
        <td class="num">–</td>
        <td class="num">–</td>
        <td>–</td>
      </>
    );
  }
  const other = revenue.otherCurrency > 0 ? countText(goalsText.otherCurrencyNote, revenue.otherCurrency) : '';
  return (
    <>
      <td class="num" title={fill(goalsText.revenueIn, { currency: revenue.currency }) + other}>
        {formatAmount(revenue.total)}
      </td>
      <td class="num">{revenue.average === null ? '–' : formatAmount(revenue.average)}</td>
      <td>{revenue.currency}</td>
    </>
  );
}

/** A change's cell, coloured as good or bad news; `…` while the figure it compares with loads. */
function ChangeCell({ change, label }: { change: KpiChange | undefined; label: string }) {
  return (
    <td class={`num ${change ? changeClass(change) : ''}`} title={label}>
      {change?.text ?? '…'}
    </td>
  );
}

export function GoalsView({ site, frame, links }: { site: SiteRow; frame(children: ComponentChildren): VNode; links: GoalsLinks }) {
  const [state, go] = useViewState();
  const view = queryParams(state, { filters: false });
  const goals = useRead(() => readNoted<GoalsAnswer>(site.id, { path: '/goals', params: view }), [view.toString()]);
  // The previous period's rates: the goals answer gives the change of conversions, not of the rate.
  const period = goals.data?.period;
  const previous = useRead(
    async () => (period ? new Map((await readSite<GoalsAnswer>(site.id, { path: '/goals', params: new URLSearchParams({ ...previousPeriod(period) }) })).goals.map((g) => [g.goalId, g.conversionRate])) : undefined),
    [site.id, period?.from, period?.to],
  );
  // Without a base for the conversions' change (none before, or days not counted), none for the rate either.
  const rateChange = (g: GoalResult): KpiChange | undefined =>
    g.delta === null || previous.error ? percentChange('conversions', null) : previous.data && pointsChange('conversions', g.conversionRate, previous.data.get(g.goalId) ?? null);
  const ready = goals.data && !goals.loading && !previous.loading;
  const funnels = useRead(() => readSite<{ funnels: FunnelSummary[] }>(site.id, { path: '/funnels' }), [site.id]);
  return frame(
    <>
      <div class="toolbar">
        <PeriodPicker period={state.period} timezone={site.timezone} resolved={goals.data?.period} onChange={(period) => go(withPeriod(state, period))} />
      </div>
      <section class="card" aria-labelledby="goals-title" data-panel="goals" data-state={goals.error ? 'error' : ready ? 'ready' : 'loading'} aria-busy={!ready}>
        <h2 id="goals-title">{namesText.goalsWord}</h2>
        {goals.data && (
          <p class="muted">
            {formatDay(goals.data.period.from)} – {formatDay(goals.data.period.to)}
          </p>
        )}
        {goals.error ? (
          <ReadFailure read={goals} />
        ) : !goals.data ? (
          <Loading />
        ) : (
          <WideTable
            region={goalsText.goalsRegion}
            columns={[
              namesText.goalWord,
              // The rate beside the conversions: on a phone both show before the table scrolls.
              { label: namesText.metricNames.conversions, numeric: true },
              { label: namesText.metricNames.conversionRate, numeric: true },
              { label: goalsText.uniqueColumn, numeric: true },
              { label: goalsText.conversionsChange, numeric: true },
              { label: goalsText.rateChangeColumn, numeric: true },
              ...(goals.data.goals.some((g) => g.revenue) ? revenueColumns() : []),
            ]}
            rows={goals.data.goals}
            empty={<p class="muted">{goalsText.noGoalsOnSite}</p>}
            row={(g) => (
              <tr key={g.goalId}>
                <td>
                  <GoalName goal={g} links={links} state={state} /> <span class="muted">
                    ({goalsText.kindInSentence[g.kind]} {g.pattern}
                    {g.props && ` ${goalsText.withProps} ${goalPropsLabel(g.props)}`})
                  </span>
                  <CountedSince since={goals.data!.countedSince.get(goalKey(g.goalId))} period={goals.data!.period} />
                </td>
                <td class="num">{formatCount(g.conversions)}</td>
                <td class="num">{formatRatio(g.conversionRate)}</td>
                <td class="num">{formatCount(g.uniqueConversions)}</td>
                <ChangeCell change={percentChange('conversions', g.delta)} label={goalsText.conversionsChangeTitle} />
                <ChangeCell change={rateChange(g)} label={goalsText.rateChangeTitle} />
                {goals.data!.goals.some((goal) => goal.revenue) && <RevenueCells revenue={g.revenue} />}
              </tr>
            )}
          />
        )}
      </section>
      <section class="card" aria-labelledby="funnels-title">
        <h2 id="funnels-title">{goalsText.funnelsHeading}</h2>
        {funnels.error ? (
          <ErrorText message={funnels.error} />
        ) : !funnels.data ? (
          <Loading />
        ) : funnels.data.funnels.length === 0 ? (
          <p class="muted">{goalsText.noFunnelsOnSite}</p>
        ) : (
          <ul class="funnel-list">
            {funnels.data.funnels.map((f) => (
              <li key={f.id}>
                <a href={links.funnel(f.id)}>{f.name}</a>{' '}
                <span class="muted">
                  {countText(goalsText.funnelSummary, f.stepCount, { minutes: formatCount(f.windowMinutes), version: f.version })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>,
  );
}
