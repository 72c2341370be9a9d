// A breakdown's rows as a table (a row whose key is one value filters the view by it; the figures a
// row adds as columns, sortable in a Details view) and the `Export CSV` link of a panel or its details.
import { useState } from 'preact/hooks';
import { breakdownCsv, type FigureInclude, includeLabel, readAllRows, rowFigure, type RowField, type RowOrder } from '../lib/breakdown.js';
import { downloadText, fileSlug } from '../lib/download.js';
import { formatCount, formatMetric, formatRatio, countText } from '../lib/format.js';
import { dimensionLabel, inSentence, isAggregateKey } from '../lib/labels.js';
import { fill } from '../lib/i18n.js';
import { namesText } from '../lib/text/names.js';
import { dashboardText } from '../lib/text/dashboard.js';
import { readableError } from '../lib/read-errors.js';
import { ErrorText } from './feedback.js';
import { KeyLabel } from '../lib/labels.js';
import { Table, type Column } from './table.js';
import { type Filter, GOAL_DIMENSION, makeFilter, type QueryDimension, viewsAreEvents } from '../../src/core/vocabulary.js';
import { isMetric } from '../../src/core/metric-registry.js';
import type { BreakdownRow, GoalResult } from '../../src/core/answers.js';

/** A figure a row shows beside its visitors: its views, or one it adds on request. */
export type RowFigure = 'views' | FigureInclude;

/** A figure's cell: views as a count, a metric as the dashboard writes it, scroll depth as a percentage; `–` where the row has none. */
function figureText(row: BreakdownRow, figure: RowFigure): string {
  const value = rowFigure(row, figure);
  if (value === null) return '–';
  if (figure === 'views') return formatCount(value);
  return isMetric(figure) ? formatMetric(figure, value) : formatRatio(value / 100);
}

/**
 * A table of rows; a row whose key is one value is a button that filters by it. `search`: the rows
 * are those matching it. Under a goal filter, each row's converters and conversion rate (its
 * conversions in the rate's title, as a panel's width holds two figures); else `goals`: a column of conversion rates, when some of the rows are goal patterns. `figures`: columns of figures beside the visitors. `order`: headers that sort the rows.
 */
export function Rows({
  dimension,
  rows,
  onFilter,
  search = '',
  goals: tabGoals,
  figures = [],
  order,
}: {
  dimension: QueryDimension;
  rows: readonly BreakdownRow[];
  onFilter(key: string): void;
  search?: string;
  goals?: ReadonlyMap<string, GoalResult>;
  figures?: readonly RowFigure[];
  order?: { current: RowOrder; onSort(by: RowField): void };
}) {
  // Under a goal filter a row's visitors are its converters, beside its own rate (the goals' rates column would repeat it).
  const converters = rows.some((row) => row.conversions !== undefined);
  const goals = !converters && tabGoals && rows.some((row) => tabGoals.has(row.key)) ? tabGoals : undefined;
  const figureLabel = (figure: RowFigure) => (figure === 'views' ? (viewsAreEvents(dimension) ? dashboardText.tabNames.event : namesText.metricNames.pageviews) : includeLabel(figure));
  const columns: Column[] = [
    { label: dimensionLabel(dimension), sort: 'key' },
    { label: converters ? dashboardText.convertersLabel : namesText.metricNames.visitors, numeric: true, sort: 'visitors' },
    ...(converters || goals ? [{ label: namesText.metricNames.conversionRate, numeric: true } as const] : []),
    ...figures.map((figure): Column => ({ label: figureLabel(figure), numeric: true, sort: figure })),
  ];
  return (
    <Table
      class="rows"
      columns={columns}
      order={order && { by: order.current.by, descending: order.current.descending, onSort: (by) => order.onSort(by as RowField) }}
      rows={rows}
      empty={<p class="muted empty">{search ? fill(dashboardText.noMatch, { dimension: inSentence(dimensionLabel(dimension)), search }) : dashboardText.noData}</p>}
      row={(row) => (
        <tr key={row.key}>
          <td class="key">
            <span class="bar" aria-hidden="true" style={{ width: `${Math.min(100, row.pct * 100)}%` }} />
            {isAggregateKey(row.key) ? (
              <span class="label">
                <KeyLabel dimension={dimension} value={row.key} />
              </span>
            ) : (
              <button type="button" class="row-filter" title={fill(dashboardText.filterBy, { dimension: dimensionLabel(dimension), key: row.key })} onClick={() => onFilter(row.key)}>
                <KeyLabel dimension={dimension} value={row.key} />
              </button>
            )}
          </td>
          <td class="num" title={formatRatio(row.pct)}>
            {formatCount(row.visitors)}
          </td>
          {converters && (
            <td class="num conversion-rate" title={fill(dashboardText.rowConversions, { conversions: countText(dashboardText.conversionsCount, row.conversions ?? 0) })}>
              {formatMetric('conversionRate', row.conversionRate ?? null)}
            </td>
          )}
          {goals && <GoalRate goal={goals.get(row.key)} />}
          {figures.map((figure) => (
            <td key={figure} class="num" title={dashboardText.figureTitles[figure]}>
              {figureText(row, figure)}
            </td>
          ))}
        </tr>
      )}
    />
  );
}

/** A goal's conversion rate: its converted visitors over the visitors of the view's period and filters. */
function GoalRate({ goal }: { goal: GoalResult | undefined }) {
  if (!goal) return <td class="num" />;
  const rate = formatRatio(goal.conversionRate);
  return (
    <td class="num goal-rate" title={fill(dashboardText.goalRateTitle, { name: goal.name, rate })}>
      {rate}
    </td>
  );
}

/** The site's goals with their converters and conversion rate (conversions in its title); a goal's name filters the view by it. */
export function GoalRows({ goals, onFilter }: { goals: readonly GoalResult[]; onFilter(filter: Filter): void }) {
  return (
    <Table
      class="rows"
      columns={[namesText.goalWord, { label: dashboardText.convertersLabel, numeric: true }, { label: namesText.metricNames.conversionRate, numeric: true }]}
      rows={goals}
      row={(goal) => (
        <tr key={goal.goalId}>
          <td class="key">
            <span class="bar" aria-hidden="true" style={{ width: `${Math.min(100, goal.conversionRate * 100)}%` }} />
            <button type="button" class="row-filter" title={fill(dashboardText.filterByGoal, { name: goal.name, kind: namesText.dimensionNames[goal.kind], pattern: goal.pattern })} onClick={() => onFilter(makeFilter(GOAL_DIMENSION, 'is', String(goal.goalId)))}>
              {goal.name}
            </button>
          </td>
          <td class="num">{formatCount(goal.uniqueConversions)}</td>
          <td class="num conversion-rate" title={countText(dashboardText.conversionsCount, goal.conversions)}>
            {formatRatio(goal.conversionRate)}
          </td>
        </tr>
      )}
    />
  );
}

export function ExportLink({ siteId, view, dimension, search }: { siteId: string; view: URLSearchParams; dimension: QueryDimension; search?: string }) {
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  return (
    <>
      <a
        href="#"
        class="export"
        aria-disabled={state.busy}
        onClick={async (event) => {
          event.preventDefault();
          if (state.busy) return;
          setState({ busy: true });
          try {
            const { rows, period } = await readAllRows(siteId, view, dimension, search);
            // Named as the panel and the days it counts: `page-2026-10-30-to-2026-11-28.csv`.
            downloadText(`${fileSlug(dimensionLabel(dimension).toLowerCase())}${search ? `-${fileSlug(search)}` : ''}-${period.from}-to-${period.to}.csv`, breakdownCsv(dimension, rows));
            setState({ busy: false });
          } catch (error) {
            setState({ busy: false, error: readableError(error) });
          }
        }}
      >
        {dashboardText.exportCsv}
      </a>
      <ErrorText message={state.error} />
    </>
  );
}

