// The Journeys view: the most frequent paths of sessions through the site, from a page (`Next
// pages`) or to it (`Previous pages`), or from the start of a visit without a page, `steps` pages
// long, each with its sessions. The period, filters and segment are the dashboard's (the same
// address parameters); `page`, `direction` and `steps` add to them. A raw read, with `raw=clip` like
// every read of the dashboard: the note says from which day it counts when the period reaches past
// the site's raw window.
import type { ComponentChildren, VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Loading } from './feedback.js';
import { ReadFailure, readState } from './read-failure.js';
import { SelectField } from './fields.js';
import { PeriodPicker } from './period-picker.js';
import { useViewState } from '../lib/address.js';
import { filtersInWords, listSegments } from '../lib/explore.js';
import { countText, formatCount, formatDay, formatRatio } from '../lib/format.js';
import { goalNamesOf } from '../lib/labels.js';
import { useRead } from '../lib/hooks.js';
import { readNoted, readSite } from '../lib/site.js';
import type { SiteRead } from '../../src/core/app-paths.js';
import type { BreakdownAnswer, GoalsAnswer, JourneysAnswer } from '../../src/core/answers.js';
import type { SiteRow } from '../../src/core/management.js';
import { queryParams, viewSearch, withPeriod, type ViewState } from '../../src/core/view-state.js';
import { goalFilterOf, isJourneyDirection, JOURNEY_LIMIT, JOURNEY_STEPS, type JourneyDirection } from '../../src/core/vocabulary.js';
import { fill } from '../lib/i18n.js';
import { frameText } from '../lib/text/frame.js';
import { journeysText } from '../lib/text/journeys.js';
import { namesText } from '../lib/text/names.js';

/** The journeys a view asks for, as its address carries them. */
interface JourneyChoice {
  page: string;
  direction: JourneyDirection;
  steps: number;
}

const STEP_CHOICES = Array.from({ length: JOURNEY_STEPS.max - JOURNEY_STEPS.min + 1 }, (_, i) => String(JOURNEY_STEPS.min + i));
/** Pages offered as suggestions in `Page`: the period's most visited. */
const PAGE_SUGGESTIONS = 50;

function choiceOf(search: string): JourneyChoice {
  const query = new URLSearchParams(search);
  const direction = query.get('page') ? (query.get('direction') ?? '') : '';
  const steps = Number(query.get('steps'));
  return {
    page: query.get('page') ?? '',
    direction: isJourneyDirection(direction) ? direction : 'next',
    steps: Number.isInteger(steps) && steps >= JOURNEY_STEPS.min && steps <= JOURNEY_STEPS.max ? steps : JOURNEY_STEPS.default,
  };
}

/** The choice in the address (kept beside the view's parameters), followed through Back and Forward. */
function useJourneyChoice(): [JourneyChoice, (next: JourneyChoice) => void] {
  const [choice, setChoice] = useState(() => choiceOf(window.location.search));
  useEffect(() => {
    const follow = () => setChoice(choiceOf(window.location.search));
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  const go = (next: JourneyChoice) => {
    const query = new URLSearchParams(window.location.search);
    if (next.page) query.set('page', next.page);
    else query.delete('page');
    query.set('direction', next.direction);
    query.set('steps', String(next.steps));
    window.history.pushState(null, '', `${window.location.pathname}?${query}`);
    setChoice(next);
  };
  return [choice, go];
}

/** Without a page, the rows are the visits' first pages: the direction is the page's (the API refuses `previous` without one). */
function journeysRead(view: URLSearchParams, choice: JourneyChoice): SiteRead {
  const params = new URLSearchParams(view);
  if (choice.page) {
    params.set('page', choice.page);
    params.set('direction', choice.direction);
  }
  params.set('steps', String(choice.steps));
  params.set('limit', String(JOURNEY_LIMIT.default));
  return { path: '/journeys', params };
}

/** A row's paths in its step columns: a shorter journey leaves the columns before (`previous`) or after (`next`) it empty. */
function stepCells(path: readonly string[], choice: JourneyChoice): Array<string | null> {
  const gap: null[] = Array(Math.max(0, choice.steps - path.length)).fill(null);
  return choice.direction === 'previous' ? [...gap, ...path] : [...path, ...gap];
}

function JourneysTable({ answer, choice }: { answer: JourneysAnswer; choice: JourneyChoice }) {
  const steps = Array.from({ length: answer.steps }, (_, i) => fill(journeysText.stepColumn, { n: i + 1 }));
  const ends = choice.direction === 'previous' ? journeysText.startOfVisit : journeysText.endOfVisit;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={frameText.journeysTab}>
      <table class="journeys">
        <thead>
          <tr>
            {steps.map((step) => (
              <th key={step} scope="col">
                {step}
              </th>
            ))}
            <th scope="col" class="num">
              {journeysText.sessionsColumn}
            </th>
          </tr>
        </thead>
        <tbody>
          {answer.rows.map((row) => (
            <tr key={row.path.join('\n')}>
              {stepCells(row.path, { ...choice, steps: answer.steps }).map((path, i, cells) => (
                <td key={i} class={path === null ? 'step end' : 'step'}>
                  {/* The visit's end (or start) once, in the empty step next to its path. */}
                  {path !== null ? <span class="step-path">{path}</span> : cells[choice.direction === 'previous' ? i + 1 : i - 1] !== null && <span class="muted">{ends}</span>}
                </td>
              ))}
              <td class="num">
                {formatCount(row.sessions)} <span class="muted">({formatRatio(answer.totalSessions > 0 ? row.sessions / answer.totalSessions : 0)})</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The view's filters and segment in words, with a link to change them on the dashboard (this page only follows them). */
function ViewFilters({ site, state }: { site: SiteRow; state: ViewState }) {
  const segments = useRead(() => (state.segment === undefined ? Promise.resolve([]) : listSegments(site.id)), [site.id, state.segment]);
  // A goal filter is said by its goals' names, as the dashboard's chip says it.
  const goalsRead = goalFilterOf(state.filters) && { path: '/goals', params: queryParams(state, { filters: false }) };
  const goals = useRead(() => (goalsRead ? readSite<GoalsAnswer>(site.id, goalsRead) : Promise.resolve(undefined)), [site.id, goalsRead && goalsRead.params.toString()]);
  if (state.filters.length === 0 && state.segment === undefined) return null;
  const segment = segments.data?.find((s) => s.id === state.segment);
  const words = [...(state.segment === undefined ? [] : [fill(journeysText.segmentNamed, { name: segment?.name ?? `#${state.segment}` })]), ...(state.filters.length > 0 ? [filtersInWords(state.filters, goalNamesOf(goals.data?.goals))] : [])];
  return (
    <p class="muted view-filters">
      {fill(journeysText.underFilters, { filters: words.join(', ') })}
      <a href={`/sites/${encodeURIComponent(site.id)}${viewSearch(state)}`}>{journeysText.changeOnDashboard}</a>
    </p>
  );
}

/** The period's most visited pages, offered in `Page`. */
function readPages(siteId: string, view: URLSearchParams): Promise<BreakdownAnswer> {
  const params = new URLSearchParams(view);
  params.set('dimension', 'page');
  params.set('limit', String(PAGE_SUGGESTIONS));
  return readSite<BreakdownAnswer>(siteId, { path: '/breakdown', params });
}

export function JourneysView({ site, frame }: { site: SiteRow; frame(children: ComponentChildren): VNode }) {
  const [state, go] = useViewState();
  const [choice, choose] = useJourneyChoice();
  const [typed, setTyped] = useState(choice.page);
  useEffect(() => setTyped(choice.page), [choice.page]);
  const view = queryParams(state);
  const read = journeysRead(view, choice);
  const key = read.params!.toString();
  const journeys = useRead(() => readNoted<JourneysAnswer>(site.id, read), [site.id, key]);
  const pages = useRead(() => readPages(site.id, view), [site.id, view.toString()]);
  const clippedFrom = journeys.data && !journeys.loading && journeys.data.clippedToRawWindow ? journeys.data.period.from : null;
  const status = readState(journeys);
  const empty = choice.page ? fill(journeysText.noVisitThrough, { page: choice.page }) : journeysText.noVisitsInPeriod;
  return frame(
    <>
      <div class="toolbar">
        <PeriodPicker period={state.period} timezone={site.timezone} resolved={journeys.data?.period} onChange={(period) => go(withPeriod(state, period))} />
      </div>
      <ViewFilters site={site} state={state} />
      {clippedFrom && (
        // The dashboard's note on figures read from the raw window's first day, said of journeys (always read from single events).
        <p class="note" role="note" data-note="raw-window">
          {fill(journeysText.rawWindowNote, { day: formatDay(clippedFrom) })}
        </p>
      )}
      <section class="card" aria-labelledby="journeys-title" data-panel="journeys" data-state={status} aria-busy={status === 'loading'}>
        <h2 id="journeys-title">{frameText.journeysTab}</h2>
        <form
          class="journey-choice"
          onSubmit={(event) => {
            event.preventDefault();
            choose({ ...choice, page: typed.trim() });
          }}
        >
          <div class="field">
            <label for="journey-page">{namesText.dimensionNames.page}</label>
            <input id="journey-page" type="text" list="journey-pages" value={typed} placeholder={journeysText.anyPage} spellcheck={false} autoComplete="off" onInput={(event) => setTyped(event.currentTarget.value)} />
            <datalist id="journey-pages">
              {(pages.data?.rows ?? []).map((row) => (
                <option key={row.key} value={row.key} />
              ))}
            </datalist>
          </div>
          {choice.page && (
            <SelectField<JourneyDirection> label={journeysText.directionField} value={choice.direction} onValue={(direction) => choose({ ...choice, page: typed.trim(), direction })} options={Object.entries(journeysText.directionNames) as Array<[JourneyDirection, string]>} />
          )}
          <SelectField label={journeysText.stepsField} value={String(choice.steps)} onValue={(steps) => choose({ ...choice, page: typed.trim(), steps: Number(steps) })} options={STEP_CHOICES.map((n) => [n, n])} />
          <button type="submit" class="primary">
            {journeysText.showJourneys}
          </button>
        </form>
        {journeys.error ? (
          <ReadFailure read={journeys} />
        ) : !journeys.data ? (
          <Loading />
        ) : journeys.data.rows.length === 0 ? (
          <p class="muted empty">{empty}</p>
        ) : (
          <>
            <p class="muted journeys-total">
              {choice.page ? fill(journeysText.directionOf, { direction: journeysText.directionNames[choice.direction], page: choice.page }) : journeysText.firstPages}
              {fill(journeysText.mostFrequent, { paths: countText(journeysText.pathsCount, journeys.data.rows.length), sessions: countText(journeysText.sessionsCount, journeys.data.totalSessions) })}
            </p>
            <JourneysTable answer={journeys.data} choice={choice} />
          </>
        )}
      </section>
    </>,
  );
}
