// A breakdown panel: tabs over related dimensions, the top rows with their visitors (a row click
// filters the whole view by it), `Details` (every row, search, pages; top pages with their scroll
// depth when the view has no filter) and `Export CSV`. A row that is the pattern of a goal shows
// the goal's conversion rate, as the goals answer gives it. The Events panel's Properties tab ranks
// the values of one custom property, picked from the keys the site's events carry over the period.
import { useEffect, useRef, useState } from 'preact/hooks';
import { breakdownCsv, includesFor, readAllRows, readBreakdown, readPropertyKeys } from '../lib/breakdown.js';
import { downloadText, fileSlug } from '../lib/download.js';
import { formatCount, formatRatio } from '../lib/format.js';
import { useRead } from '../lib/read.js';
import { dimensionLabel, inSentence, isAggregateKey } from '../lib/labels.js';
import { readableError } from '../lib/read-errors.js';
import { ErrorText, Loading } from './feedback.js';
import { KeyLabel } from './key-label.js';
import { Table } from './table.js';
import { PROPERTY_PREFIX, type Filter, type QueryDimension } from '../../src/core/vocabulary.js';
import type { BreakdownAnswer, BreakdownRow, GoalResult } from '../../src/core/answers.js';
import { SelectField } from './fields.js';
import { PANEL_ROWS, type PanelSpec, type PanelTab } from '../../src/core/dashboard-reads.js';

/** A tab's name in element ids. */
const tabName = (tab: PanelTab) => ('properties' in tab ? 'properties' : tab.dimension);

const DETAILS_ROWS = 25;

interface PanelProps {
  spec: PanelSpec;
  siteId: string;
  /** The view's period and filters as API parameters. */
  view: URLSearchParams;
  /** The site's goals over the view's period (undefined until read). */
  goals: readonly GoalResult[] | undefined;
  onFilter(filter: Filter): void;
}

/** The goals of a tab by pattern, when the tab's keys are goal patterns and there are such goals (goals requiring property values aside). */
function goalsByKey(tab: PanelTab, goals: readonly GoalResult[] | undefined): ReadonlyMap<string, GoalResult> | undefined {
  if ('properties' in tab || !tab.goals) return undefined;
  const matching = goals?.filter((g) => g.kind === tab.goals && !g.props) ?? [];
  return matching.length > 0 ? new Map(matching.map((g) => [g.pattern, g])) : undefined;
}

/**
 * A table of rows; a row whose key is one value is a button that filters by it. `search`: the rows
 * are those matching it. `goals`: a column of conversion rates, when some of the rows are goal patterns.
 */
function Rows({
  dimension,
  rows,
  onFilter,
  search = '',
  goals: tabGoals,
  scrollDepth = false,
}: {
  dimension: QueryDimension;
  rows: readonly BreakdownRow[];
  onFilter(key: string): void;
  search?: string;
  goals?: ReadonlyMap<string, GoalResult>;
  /** Whether the rows carry their scroll depth (a column of it). */
  scrollDepth?: boolean;
}) {
  const goals = tabGoals && rows.some((row) => tabGoals.has(row.key)) ? tabGoals : undefined;
  return (
    <Table
      class="rows"
      columns={[
        dimensionLabel(dimension),
        { label: 'Visitors', numeric: true },
        ...(goals ? [{ label: 'Conversion rate', numeric: true } as const] : []),
        ...(scrollDepth ? [{ label: 'Scroll depth', numeric: true } as const] : []),
      ]}
      rows={rows}
      empty={<p class="muted empty">{search ? `No ${inSentence(dimensionLabel(dimension))} matches “${search}”.` : 'No data for this period.'}</p>}
      row={(row) => (
        <tr key={row.key}>
          <td class="key">
            <span class="bar" aria-hidden="true" style={{ width: `${Math.min(100, row.pct * 100)}%` }} />
            {isAggregateKey(row.key) ? (
              <span class="label">
                <KeyLabel dimension={dimension} value={row.key} />
              </span>
            ) : (
              <button type="button" class="row-filter" title={`Filter by ${dimensionLabel(dimension)}: ${row.key}`} onClick={() => onFilter(row.key)}>
                <KeyLabel dimension={dimension} value={row.key} />
              </button>
            )}
          </td>
          <td class="num" title={formatRatio(row.pct)}>
            {formatCount(row.visitors)}
          </td>
          {goals && <GoalRate goal={goals.get(row.key)} />}
          {scrollDepth && (
            <td class="num" title="Mean deepest scroll of the page's visitors">
              {row.scrollDepth === null || row.scrollDepth === undefined ? '–' : formatRatio(row.scrollDepth / 100)}
            </td>
          )}
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
    <td class="num goal-rate" title={`Goal “${goal.name}”: ${rate} of the period's visitors under the view's filters converted`}>
      {rate}
    </td>
  );
}

function ExportLink({ siteId, view, dimension, search }: { siteId: string; view: URLSearchParams; dimension: QueryDimension; search?: string }) {
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
            const rows = await readAllRows(siteId, view, dimension, search);
            downloadText(`${dimension}${search ? `-${fileSlug(search)}` : ''}-${fileSlug(view.toString())}.csv`, breakdownCsv(dimension, rows));
            setState({ busy: false });
          } catch (error) {
            setState({ busy: false, error: readableError(error) });
          }
        }}
      >
        Export CSV
      </a>
      <ErrorText message={state.error} />
    </>
  );
}

function Details({
  siteId,
  view,
  dimension,
  goals,
  onFilter,
  onClose,
}: {
  siteId: string;
  view: URLSearchParams;
  dimension: QueryDimension;
  goals: ReadonlyMap<string, GoalResult> | undefined;
  onFilter(key: string): void;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  useEffect(() => {
    const wait = setTimeout(() => {
      setSearch(typed.trim());
      setOffset(0);
    }, 250);
    return () => clearTimeout(wait);
  }, [typed]);
  const include = includesFor(view, dimension);
  const page = useRead(() => readBreakdown(siteId, view, dimension, { limit: DETAILS_ROWS, offset, search, include }), [siteId, view, dimension, offset, search].join('|'));
  const total = page.data?.totalKeys ?? 0;
  const title = `${dimensionLabel(dimension)}: details`;
  return (
    <dialog ref={dialog} class="details" aria-labelledby="details-title" onClose={onClose}>
      <div class="card-head">
        <h2 id="details-title">{title}</h2>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <div class="details-tools">
        <div class="field">
          <label for="details-search">Search</label>
          <input id="details-search" type="search" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} autoFocus />
        </div>
        <ExportLink siteId={siteId} view={view} dimension={dimension} search={search || undefined} />
      </div>
      <div aria-busy={page.loading} class="details-rows">
        {page.error ? (
          <ErrorText message={page.error} />
        ) : page.data ? (
          <Rows
            dimension={dimension}
            rows={page.data.rows}
            search={search}
            goals={goals}
            scrollDepth={include.includes('scrollDepth')}
            onFilter={(key) => {
              dialog.current?.close();
              onFilter(key);
            }}
          />
        ) : (
          <Loading />
        )}
      </div>
      <nav class="pager" aria-label="Pages of rows">
        <button type="button" disabled={offset === 0 || page.loading} onClick={() => setOffset(Math.max(0, offset - DETAILS_ROWS))}>
          Previous
        </button>
        <span>
          {total === 0 ? '0' : `${formatCount(offset + 1)}–${formatCount(Math.min(total, offset + DETAILS_ROWS))}`} of {formatCount(total)}
        </span>
        <button type="button" disabled={offset + DETAILS_ROWS >= total || page.loading} onClick={() => setOffset(offset + DETAILS_ROWS)}>
          Next
        </button>
      </nav>
    </dialog>
  );
}

export function BreakdownPanel({ spec, siteId, view, goals, onFilter }: PanelProps) {
  const [tab, setTab] = useState(0);
  const [details, setDetails] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  const current = spec.tabs[tab]!;
  const properties = 'properties' in current;
  const unfiltered = new URLSearchParams(view);
  unfiltered.delete('filter');
  const keys = useRead(() => (properties ? readPropertyKeys(siteId, view) : Promise.resolve(undefined)), properties ? `${siteId}|${unfiltered}` : '');
  const keyList = properties && !keys.loading ? (keys.data?.keys.map((k) => k.key) ?? []) : [];
  // The picked key while the period has it, else the one carried by the most events.
  const key = picked !== null && keyList.includes(picked) ? picked : (keyList[0] ?? null);
  const dimension: QueryDimension | null = 'properties' in current ? (key === null ? null : `${PROPERTY_PREFIX}${key}`) : current.dimension;
  const tabGoals = goalsByKey(current, goals);
  const data = useRead<BreakdownAnswer | undefined>(
    () => (dimension === null ? Promise.resolve(undefined) : readBreakdown(siteId, view, dimension, { limit: PANEL_ROWS })),
    [siteId, view, dimension ?? '', properties && keys.loading].join('|'),
  );
  const error = (properties ? keys.error : undefined) ?? data.error;
  const noKeys = properties && !keys.loading && !keys.error && keyList.length === 0;
  const state = error ? 'error' : noKeys ? 'ready' : data.loading || !data.data ? 'loading' : 'ready';
  const headingId = `panel-${spec.id}`;
  const tabId = (t: PanelTab) => `${spec.id}-tab-${tabName(t)}`;
  return (
    <section class="card panel" aria-labelledby={headingId} data-panel={spec.id} data-state={state} aria-busy={state === 'loading'}>
      <div class="card-head">
        <h2 id={headingId}>{spec.title}</h2>
        {spec.tabs.length > 1 && (
          <div role="tablist" aria-label={`${spec.title} by`} class="panel-tabs">
            {spec.tabs.map((t, i) => (
              <button
                key={tabName(t)}
                type="button"
                role="tab"
                id={tabId(t)}
                aria-selected={i === tab}
                aria-controls={`${spec.id}-rows`}
                tabIndex={i === tab ? 0 : -1}
                onClick={() => setTab(i)}
                onKeyDown={(event) => {
                  const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
                  if (!step) return;
                  const next = (i + step + spec.tabs.length) % spec.tabs.length;
                  setTab(next);
                  document.getElementById(tabId(spec.tabs[next]!))?.focus();
                }}
              >
                {t.label}
              </button>
            ))}
          </div>
        )}
      </div>
      <div id={`${spec.id}-rows`} role={spec.tabs.length > 1 ? 'tabpanel' : undefined} aria-labelledby={spec.tabs.length > 1 ? tabId(current) : headingId} class="panel-body">
        {key !== null && keyList.length > 0 && (
          <div class="property-picker">
            <SelectField label="Property" value={key} onValue={setPicked} options={keyList.map((k) => [k, k])} />
          </div>
        )}
        {error ? (
          <ErrorText message={error} />
        ) : noKeys ? (
          <p class="muted empty">No event carries a custom property in this period.</p>
        ) : data.data && dimension !== null ? (
          <Rows dimension={dimension} rows={data.data.rows} goals={tabGoals} onFilter={(value) => onFilter({ dimension, value })} />
        ) : (
          <Loading />
        )}
      </div>
      {dimension !== null && (
        <div class="panel-foot actions">
          <button type="button" class="link" onClick={() => setDetails(true)} aria-label={`Details: ${dimensionLabel(dimension)}`}>
            Details
          </button>
          <ExportLink siteId={siteId} view={view} dimension={dimension} />
        </div>
      )}
      {details && dimension !== null && (
        <Details siteId={siteId} view={view} dimension={dimension} goals={tabGoals} onFilter={(value) => onFilter({ dimension, value })} onClose={() => setDetails(false)} />
      )}
    </section>
  );
}
