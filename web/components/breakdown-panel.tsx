// A breakdown panel: tabs over related dimensions, the top rows with their visitors (a row click
// filters the whole view by it), `Details` (./breakdown-details.tsx) and `Export CSV`. A row that is
// the pattern of a goal shows the goal's conversion rate, as the goals answer gives it. The Events
// panel's Goals tab lists the site's goals (a click filters the view by one), its Properties tab ranks
// the values of one custom property, picked from the keys the site's events carry over the period;
// there and on the UTM tabs, `(none)` comes last.
import { useState } from 'preact/hooks';
import { readBreakdown, readPropertyKeys, unfilteredView } from '../lib/breakdown.js';
import { useRead } from '../lib/hooks.js';
import { readNoted, type FigureNotes } from '../lib/site.js';
import { dimensionLabel, isAggregateKey } from '../lib/labels.js';
import { fill } from '../lib/i18n.js';
import { Loading } from './feedback.js';
import { ReadFailure, readState } from './read-failure.js';
import { ExportLink, GoalRows, Rows } from './breakdown-rows.js';
import { Details } from './breakdown-details.js';
import { isPropertyDimension, NONE_KEY, oneValueFilter, PROPERTY_PREFIX, type Filter, type QueryDimension } from '../../src/core/vocabulary.js';
import type { BreakdownAnswer, BreakdownRow, GoalResult } from '../../src/core/answers.js';
import { SelectField } from './fields.js';
import { breakdownRead, PANEL_ROWS, type DimensionTab, type PanelSpec, type PanelTab } from '../../src/core/dashboard-reads.js';
import { namesText } from '../lib/text/names.js';
import { dashboardText } from '../lib/text/dashboard.js';

/** A tab's name in element ids. */
const tabName = (tab: PanelTab) => ('properties' in tab ? 'properties' : 'goalList' in tab ? 'goals' : tab.dimension);
const tabLabel = (tab: PanelTab) => ('properties' in tab ? namesText.propertiesWord : 'goalList' in tab ? namesText.goalsWord : dashboardText.tabNames[tab.dimension]);

interface PanelProps {
  spec: PanelSpec;
  siteId: string;
  /** The view's period and filters as API parameters. */
  view: URLSearchParams;
  /** The site's goals over the view's period (undefined until read). */
  goals: readonly GoalResult[] | undefined;
  /** Whether the reader may list the site's property keys (not through a link locked to filters, which refuses them). */
  propertyKeys: boolean;
  onFilter(filter: Filter): void;
}

/**
 * The rows as the panel lists them: on a UTM or property tab, `(none)` (visits without the tag,
 * events without the property) after the values the tab is about.
 */
const valuesFirst = (dimension: QueryDimension, rows: readonly BreakdownRow[]) =>
  dimension.startsWith('utm_') || isPropertyDimension(dimension) ? [...rows.filter((r) => r.key !== NONE_KEY), ...rows.filter((r) => r.key === NONE_KEY)] : rows;

/** The goals of a tab by pattern, when the tab's keys are goal patterns and there are such goals (goals requiring property values aside). */
function goalsByKey(tab: PanelTab, goals: readonly GoalResult[] | undefined): ReadonlyMap<string, GoalResult> | undefined {
  if (!('dimension' in tab) || !tab.goals) return undefined;
  const matching = goals?.filter((g) => g.kind === tab.goals && !g.props) ?? [];
  return matching.length > 0 ? new Map(matching.map((g) => [g.pattern, g])) : undefined;
}

export function BreakdownPanel({ spec, siteId, view, goals, propertyKeys, onFilter }: PanelProps) {
  const [tab, setTab] = useState(0);
  const [details, setDetails] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  const unfiltered = unfilteredView(view);
  // Two named keys of the period (its filters aside) are enough to tell that it has several.
  // The panel's tab shown only when the period has several keys of its dimension, if it has one.
  const several = spec.tabs.find((t): t is DimensionTab => 'several' in t);
  const named = useRead(
    () => (several ? readBreakdown(siteId, unfiltered, several.dimension, { limit: 3 }) : Promise.resolve(undefined)),
    [several && siteId, several && unfiltered.toString()],
  );
  // The Goals tab shown once the site has goals; the Properties tab where its keys may be read.
  const shown = (t: PanelTab) => ('goalList' in t ? goals?.length : 'properties' in t ? propertyKeys : t !== several || named.data?.rows.filter((r) => !isAggregateKey(r.key))[1]);
  const tabs = spec.tabs.filter(shown);
  // The Hostnames tab may go when the period changes: the first tab then stands in for it.
  const current = tabs[tab] ?? tabs[0]!;
  const properties = 'properties' in current;
  const keys = useRead(() => (properties ? readPropertyKeys(siteId, view) : Promise.resolve(undefined)), [properties && siteId, properties && unfiltered.toString()]);
  const keyList = properties && !keys.loading ? (keys.data?.keys.map((k) => k.key) ?? []) : [];
  // The picked key while the period has it, else the one carried by the most events.
  const key = picked !== null && keyList.includes(picked) ? picked : (keyList[0] ?? null);
  const goalList = 'goalList' in current;
  const dimension: QueryDimension | null = 'dimension' in current ? current.dimension : key === null || !properties ? null : `${PROPERTY_PREFIX}${key}`;
  const tabGoals = goalsByKey(current, goals);
  const data = useRead<(BreakdownAnswer & FigureNotes) | undefined>(
    () => {
      if (dimension === null) return Promise.resolve(undefined);
      return readNoted<BreakdownAnswer>(siteId, breakdownRead(view, dimension, { limit: PANEL_ROWS }));
    },
    [siteId, view.toString(), dimension, properties && keys.loading],
  );
  const failed = properties && keys.error ? keys : data.error ? data : null;
  const noKeys = properties && !keys.loading && !keys.error && keyList.length === 0;
  // Days without single events under filters that need them are an answer (a note), not a failure.
  const state = failed ? readState(failed) : noKeys || goalList ? 'ready' : data.loading || !data.data ? 'loading' : 'ready';
  const headingId = `panel-${spec.id}`;
  const tabId = (t: PanelTab) => `${spec.id}-tab-${tabName(t)}`;
  return (
    <section class="card panel" aria-labelledby={headingId} data-panel={spec.id} data-state={state} aria-busy={state === 'loading'}>
      <div class="card-head">
        <h2 id={headingId}>{dashboardText.panelNames[spec.id]}</h2>
        {tabs.length > 1 && (
          <div role="tablist" aria-label={fill(dashboardText.panelBy, { panel: dashboardText.panelNames[spec.id] })} class="panel-tabs">
            {tabs.map((t, i) => (
              <button
                key={tabName(t)}
                type="button"
                role="tab"
                id={tabId(t)}
                aria-selected={t === current}
                aria-controls={`${spec.id}-rows`}
                tabIndex={t === current ? 0 : -1}
                onClick={() => setTab(i)}
                onKeyDown={(event) => {
                  const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
                  if (!step) return;
                  const next = (i + step + tabs.length) % tabs.length;
                  setTab(next);
                  document.getElementById(tabId(tabs[next]!))?.focus();
                }}
              >
                {tabLabel(t)}
              </button>
            ))}
          </div>
        )}
      </div>
      <div id={`${spec.id}-rows`} role={tabs.length > 1 ? 'tabpanel' : undefined} aria-labelledby={tabs.length > 1 ? tabId(current) : headingId} class="panel-body">
        {key !== null && keyList.length > 0 && (
          <div class="property-picker">
            <SelectField label={namesText.propertyWord} value={key} onValue={setPicked} options={keyList.map((k) => [k, k])} />
          </div>
        )}
        {goalList ? (
          <GoalRows goals={goals ?? []} onFilter={onFilter} />
        ) : failed ? (
          <ReadFailure read={failed} />
        ) : noKeys ? (
          <p class="muted empty">{dashboardText.noCustomProperty}</p>
        ) : data.data && dimension !== null ? (
          <>
            <Rows dimension={dimension} rows={valuesFirst(dimension, data.data.rows)} goals={tabGoals} onFilter={(value) => onFilter(oneValueFilter(dimension, value))} />
            {/* A filter beside another dimension reads single events: the figures imported from another tool cannot be cut so. */}
            {data.data.imported === 'excluded' && <p class="muted panel-note">{dashboardText.withoutImported}</p>}
          </>
        ) : (
          <Loading />
        )}
      </div>
      {dimension !== null && (
        <div class="panel-foot actions">
          <button type="button" class="link" onClick={() => setDetails(true)} aria-label={fill(dashboardText.detailsOf, { dimension: dimensionLabel(dimension) })}>
            {dashboardText.detailsLink}
          </button>
          <ExportLink siteId={siteId} view={view} dimension={dimension} />
        </div>
      )}
      {details && dimension !== null && (
        <Details siteId={siteId} view={view} dimension={dimension} goals={tabGoals} onFilter={(value) => onFilter(oneValueFilter(dimension, value))} onClose={() => setDetails(false)} />
      )}
    </section>
  );
}
