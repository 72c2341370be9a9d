// A panel's `Details`: the keys with the most visitors (up to the API's largest page) with their
// views and the figures they add in this view (bounce rate, visit duration, scroll depth), searched
// on the server, sorted by any column and paged here, and exported as CSV.
import { useEffect, useRef, useState } from 'preact/hooks';
import { WebVitals } from './web-vitals.js';
import { includeApplies, includesFor, readBreakdown, type RowField, type RowOrder, sortRows } from '../lib/breakdown.js';
import { formatCount } from '../lib/format.js';
import { useRead } from '../lib/hooks.js';
import { dimensionLabel } from '../lib/labels.js';
import { fill } from '../lib/i18n.js';
import { dashboardText } from '../lib/text/dashboard.js';
import { periodText } from '../lib/text/period.js';
import { Loading } from './feedback.js';
import { ReadFailure } from './read-failure.js';
import { ExportLink, Rows } from './breakdown-rows.js';
import { BREAKDOWN_LIMIT, GOAL_DIMENSION, type QueryDimension, splitFilterParam } from '../../src/core/vocabulary.js';
import type { GoalResult } from '../../src/core/answers.js';

const DETAILS_ROWS = 25;
/** The API's order: most visitors first. */
const BY_VISITORS: RowOrder = { by: 'visitors', descending: true };

export function Details({
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
  const [order, setOrder] = useState<RowOrder>(BY_VISITORS);
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
  // Under a goal filter the rows' conversions say what pageviews would, as on the tiles.
  const goalFiltered = view.getAll('filter').some((text) => splitFilterParam(text)?.dimension === GOAL_DIMENSION);
  // Pages have a second view, their web vitals, read with the rows.
  const [vitals, setVitals] = useState(false);
  const vitalsApply = includeApplies(view, dimension, 'vitals');
  const asked = vitalsApply ? [...include, 'vitals' as const] : include;
  // One read of the keys with the most visitors: sorting by another column orders all of them, not one page.
  const read = useRead(() => readBreakdown(siteId, view, dimension, { limit: BREAKDOWN_LIMIT.max, search, include: asked }), [siteId, view.toString(), dimension, search]);
  const rows = read.data ? sortRows(dimension, read.data.rows, order) : [];
  const total = rows.length;
  const sortBy = (by: RowField) => {
    // The same column again turns the order round; another starts with its largest figures (keys: A to Z).
    setOrder(by === order.by ? { by, descending: !order.descending } : { by, descending: by !== 'key' });
    setOffset(0);
  };
  return (
    <dialog ref={dialog} class="details" aria-labelledby="details-title" onClose={onClose}>
      <div class="card-head">
        <h2 id="details-title">{fill(dashboardText.detailsTitle, { dimension: dimensionLabel(dimension) })}</h2>
        <button type="button" onClick={() => dialog.current?.close()}>
          {periodText.closeButton}
        </button>
      </div>
      <div class="details-tools">
        <div class="field">
          <label for="details-search">{dashboardText.searchField}</label>
          <input id="details-search" type="search" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} autoFocus />
        </div>
        <ExportLink siteId={siteId} view={view} dimension={dimension} search={search || undefined} />
        {vitalsApply && (
          <button type="button" aria-pressed={vitals} onClick={() => setVitals(!vitals)}>
            {dashboardText.webVitals}
          </button>
        )}
      </div>
      <div aria-busy={read.loading} class="details-rows table-wrap">
        {read.error ? (
          <ReadFailure read={read} />
        ) : read.data && vitals && vitalsApply ? (
          <WebVitals rows={rows.slice(offset, offset + DETAILS_ROWS)} />
        ) : read.data ? (
          <Rows
            dimension={dimension}
            rows={rows.slice(offset, offset + DETAILS_ROWS)}
            search={search}
            goals={goals}
            figures={goalFiltered ? include : ['views', ...include]}
            order={{ current: order, onSort: sortBy }}
            onFilter={(key) => {
              dialog.current?.close();
              onFilter(key);
            }}
          />
        ) : (
          <Loading />
        )}
      </div>
      {read.data && read.data.totalKeys > total && (
        <p class="muted details-cut">{fill(dashboardText.mostVisitors, { shown: formatCount(total), total: formatCount(read.data.totalKeys) })}</p>
      )}
      <nav class="pager" aria-label={dashboardText.rowPages}>
        <button type="button" disabled={offset === 0 || read.loading} onClick={() => setOffset(Math.max(0, offset - DETAILS_ROWS))}>
          {dashboardText.previousButton}
        </button>
        <span>{fill(dashboardText.rangeOf, { range: total === 0 ? '0' : `${formatCount(offset + 1)}–${formatCount(Math.min(total, offset + DETAILS_ROWS))}`, total: formatCount(total) })}</span>
        <button type="button" disabled={offset + DETAILS_ROWS >= total || read.loading} onClick={() => setOffset(offset + DETAILS_ROWS)}>
          {dashboardText.nextButton}
        </button>
      </nav>
    </dialog>
  );
}
