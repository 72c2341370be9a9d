// The dashboard's pure modules: CSV export text, the address <-> view state, locale formatting.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chartGeometry, nearestIndex, niceStep, partialBucket } from '../../web/lib/chart.js';
import { toCsv } from '../../web/lib/csv.js';
import { bucketStamp, changeClass, formatBucket, formatChange, formatCount, formatDuration, formatMetric, formatPoints, formatRatio, kpiChange, percentChange, pointsChange } from '../../web/lib/format.js';
import { nullReason } from '../../web/lib/kpi-reason.js';
import { parseViewState, queryParams, statsParams, viewSearch, withComparison, withFilter, withFilterReplaced, withFilterValues, withMetric, withoutFilter, withPeriod } from '../../src/core/view-state.js';
import { timeseriesRead } from '../../src/core/dashboard-reads.js';
import { refusalInWords, statusInWords } from '../../web/lib/webhook-status.js';
import { siteSettings } from '../../src/core/messages/en/site-settings.js';
import type { RejectionReason } from '../../src/alerts/url-safety.js';
import { changeIsGood, METRIC_REGISTRY, METRICS } from '../../src/core/metric-registry.js';
import { FILTER_OPERATORS, filterParam, makeFilter, splitFilterParam, type Filter, type QueryDimension } from '../../src/core/vocabulary.js';
import { countryFlag, filterValueLabel, goalNamesOf, keyLabel, operatorLabel } from '../../web/lib/labels.js';
import { matchedByName, rowsNamed, valuesPage } from '../../web/lib/value-search.js';
import type { BreakdownRow } from '../../src/core/answers.js';
import { parseCsv } from '../helpers/csv.js';
import { breakdownCsv, includeApplies, includesFor, type RowOrder, sortRows } from '../../web/lib/breakdown.js';
import { siteNotFound } from '../../web/lib/site.js';
import { bucketOfDay } from '../../web/lib/explore.js';
import { apiError } from '../../src/core/errors.js';

describe('csv', () => {
  test('a header row, CRLF records, fields quoted as RFC 4180 says', () => {
    const text = toCsv(['key', 'visitors'], [['/a,b', 3], ['say "hi"', 2], ['two\nlines', 1], [null, 0]]);
    assert.equal(text, 'key,visitors\r\n"/a,b",3\r\n"say ""hi""",2\r\n"two\nlines",1\r\n,0\r\n');
    assert.deepEqual(parseCsv(text), [['key', 'visitors'], ['/a,b', '3'], ['say "hi"', '2'], ['two\nlines', '1'], ['', '0']]);
  });

  test("a formula's text is neutralised as src/core/csv-field.ts says (test/core/csv-field.test.ts); numbers are not", () => {
    assert.equal(toCsv(['campaign', 'change'], [['=HYPERLINK("http://x","y")', -12.5]]), `campaign,change\r\n"'=HYPERLINK(""http://x"",""y"")",-12.5\r\n`);
  });
});

describe('view state', () => {
  test('defaults: 30d, no filter, visitors; written back as an empty query', () => {
    const state = parseViewState('');
    assert.deepEqual(state, { period: { preset: '30d' }, filters: [], metric: 'visitors', comparison: 'previous' });
    assert.equal(viewSearch(state), '');
  });

  test('an address round-trips: preset, repeated filters, metric', () => {
    const search = '?period=year&filter=country%3AFR&filter=page%3A%2Fa%3Ab&metric=pageviews';
    const state = parseViewState(search);
    assert.deepEqual(state, { period: { preset: 'year' }, filters: [{ dimension: 'country', value: 'FR', values: ['FR'] }, { dimension: 'page', value: '/a:b', values: ['/a:b'] }], metric: 'pageviews', comparison: 'previous' });
    assert.equal(viewSearch(state), search);
    // The reads under filters clip to the raw window; the address does not say it.
    assert.equal(queryParams(state).toString(), 'period=year&filter=country%3AFR&filter=page%3A%2Fa%3Ab&raw=clip');
    assert.equal(queryParams(state, { filters: false }).toString(), 'period=year');
  });

  test('an address round-trips the filter operators and the periods 12mo and all', () => {
    const search = '?period=all&filter=referrer%21%3A%28none%29&filter=page%7E%3Ablog';
    const state = parseViewState(search);
    assert.deepEqual(state.period, { preset: 'all' });
    assert.deepEqual(state.filters, [
      { dimension: 'referrer', operator: 'is_not', value: '(none)', values: ['(none)'] },
      { dimension: 'page', operator: 'contains', value: 'blog', values: ['blog'] },
    ]);
    assert.equal(viewSearch(state), search);
    assert.deepEqual(withFilter(state, { dimension: 'page', value: '/a', values: ['/a'] }).filters[1], { dimension: 'page', value: '/a', values: ['/a'] });
    assert.deepEqual(parseViewState('period=12mo').period, { preset: '12mo' });
  });

  test('from + to take priority over period; a half range is ignored', () => {
    assert.deepEqual(parseViewState('period=7d&from=2026-01-01&to=2026-01-31').period, { from: '2026-01-01', to: '2026-01-31' });
    assert.deepEqual(parseViewState('period=7d&from=2026-01-01').period, { preset: '7d' });
    assert.equal(viewSearch(parseViewState('from=2026-01-01&to=2026-01-31')), '?from=2026-01-01&to=2026-01-31');
  });

  test('what an address cannot mean falls back to the default', () => {
    const state = parseViewState('period=decade&metric=money&filter=colour:red&filter=page:&filter=nocolon&filter=:x&comparison=never');
    assert.deepEqual(state, { period: { preset: '30d' }, filters: [], metric: 'visitors', comparison: 'previous' });
  });

  test('one filter per dimension: adding replaces, removing keeps the others in order', () => {
    let state = parseViewState('filter=country:FR&filter=device:mobile');
    state = withFilter(state, { dimension: 'country', value: 'DE', values: ['DE'] });
    assert.deepEqual(state.filters, [{ dimension: 'country', value: 'DE', values: ['DE'] }, { dimension: 'device', value: 'mobile', values: ['mobile'] }]);
    state = withFilter(state, { dimension: 'browser', value: 'Firefox', values: ['Firefox'] });
    assert.deepEqual(withoutFilter(state, 'country').filters.map((f) => f.dimension), ['device', 'browser']);
    assert.deepEqual(parseViewState('filter=country:FR&filter=country:DE').filters, [{ dimension: 'country', value: 'DE', values: ['DE'] }]);
    assert.equal(viewSearch(withMetric(withPeriod(state, { preset: '7d' }), 'bounceRate')), '?period=7d&filter=country%3ADE&filter=device%3Amobile&filter=browser%3AFirefox&metric=bounceRate');
  });

  test('an address keeps a goal filter (is only) and its metrics; without one, conversion rate falls back to visitors', () => {
    const search = '?filter=goal%3A3%7C7&filter=country%3ADE&metric=conversionRate';
    const state = parseViewState(search);
    assert.deepEqual(state.filters, [{ dimension: 'goal', value: '3|7', values: ['3', '7'] }, { dimension: 'country', value: 'DE', values: ['DE'] }]);
    assert.equal(state.metric, 'conversionRate');
    assert.equal(viewSearch(state), search);
    assert.equal(queryParams(state).toString(), 'period=30d&filter=goal%3A3%7C7&filter=country%3ADE&raw=clip');
    // The API takes `is` only for goals: another operator is no filter.
    assert.deepEqual(parseViewState('filter=goal!:3&filter=goal~:3').filters, []);
    assert.equal(parseViewState('metric=conversionRate').metric, 'visitors');
    assert.equal(parseViewState('filter=goal:3&metric=conversions').metric, 'conversions');
    // The goal filter removed or replaced, its own metric goes with it; another stays.
    assert.equal(withoutFilter(state, 'goal').metric, 'visitors');
    assert.equal(withoutFilter(state, 'country').metric, 'conversionRate');
    assert.equal(withFilterReplaced(state, 'goal', makeFilter('page', 'is', '/a')).metric, 'visitors');
    assert.equal(withoutFilter(withMetric(state, 'conversions'), 'goal').metric, 'conversions');
  });
});

describe('segments and annotations', () => {
  test('a segment round-trips in the address and goes with every read; an id the address cannot mean is none', () => {
    const search = '?period=7d&filter=page%3A%2Fpricing&segment=12';
    const state = parseViewState(search);
    assert.equal(state.segment, 12);
    assert.equal(viewSearch(state), search);
    assert.equal(queryParams(state).get('segment'), '12');
    assert.equal(statsParams(state).get('segment'), '12');
    assert.equal(queryParams(state, { filters: false }).get('segment'), null);
    for (const bad of ['0', '-1', '1.5', 'x', '', '01', '1234567890123456']) assert.equal(parseViewState(`segment=${bad}`).segment, undefined, bad);
    assert.equal(viewSearch(withPeriod(parseViewState('segment=3'), { preset: '90d' })), '?period=90d&segment=3');
  });

  test("an annotated day's bucket: the last that starts on or before it, none outside the period", () => {
    const days = ['2026-03-02', '2026-03-09', '2026-03-16'];
    const cases: Array<[string, number | null]> = [
      ['2026-03-01', null],
      ['2026-03-02', 0],
      ['2026-03-08', 0],
      ['2026-03-09', 1],
      ['2026-03-22', 2],
      ['2026-03-23', null],
    ];
    for (const [day, bucket] of cases) assert.equal(bucketOfDay(days, day, '2026-03-22'), bucket, day);
  });
});

describe('filter operators', () => {
  test('each operator is written with its separator and read back from it, in the address too', () => {
    assert.deepEqual(FILTER_OPERATORS, { is: ':', is_not: '!:', contains: '~:' });
    assert.deepEqual((['is', 'is_not', 'contains'] as const).map(operatorLabel), ['is', 'is not', 'contains']);
    const filters: Filter[] = [
      { dimension: 'country', value: 'DE', values: ['DE'], operator: 'is_not' },
      { dimension: 'page', value: '/a:b!:c', values: ['/a:b!:c'], operator: 'contains' },
      { dimension: 'prop.plan', value: 'pro', values: ['pro'] },
      { dimension: 'referrer', value: '(none)', values: ['(none)'], operator: 'is_not' },
    ];
    assert.deepEqual(filters.map(filterParam), ['country!:DE', 'page~:/a:b!:c', 'prop.plan:pro', 'referrer!:(none)']);
    for (const f of filters) assert.deepEqual(splitFilterParam(filterParam(f)), { dimension: f.dimension, operator: f.operator ?? 'is', value: f.value });
    const search = '?filter=country%21%3ADE&filter=page%7E%3A%2Fa%3Ab%21%3Ac&filter=prop.plan%3Apro&filter=referrer%21%3A%28none%29';
    const state = parseViewState(search);
    assert.deepEqual(state.filters, filters);
    assert.equal(viewSearch(state), search);
    assert.equal(splitFilterParam('nocolon'), undefined);
    // One filter per dimension whatever its operator: the last one given stays.
    assert.deepEqual(parseViewState('filter=country:FR&filter=country!:DE').filters, [{ dimension: 'country', value: 'DE', values: ['DE'], operator: 'is_not' }]);
    assert.deepEqual(withFilter(state, { dimension: 'country', value: 'FR', values: ['FR'] }).filters[0], { dimension: 'country', value: 'FR', values: ['FR'] });
    // An operator without a dimension or a value is no filter.
    assert.deepEqual(parseViewState('filter=!:DE&filter=country~:&filter=colour!:red').filters, []);
  });

  test('a chip names a key by its name and quotes the text of contains', () => {
    assert.equal(filterValueLabel({ dimension: 'country', value: 'DE', values: ['DE'], operator: 'is_not' }), keyLabel('country', 'DE'));
    assert.notEqual(keyLabel('country', 'DE'), 'DE');
    assert.equal(filterValueLabel({ dimension: 'country', value: 'DE', values: ['DE'], operator: 'contains' }), '“DE”');
    assert.equal(filterValueLabel({ dimension: 'browser', value: 'Firefox', values: ['Firefox'] }), 'Firefox');
    // Several values in words.
    assert.equal(filterValueLabel(makeFilter('country', 'is', 'DE|AT')), `${keyLabel('country', 'DE')} or ${keyLabel('country', 'AT')}`);
    assert.equal(filterValueLabel(makeFilter('page', 'contains', 'a|b|c')), '“a”, “b” or “c”');
    // A goal by its name, by its id while the names are unknown.
    const names = goalNamesOf([{ goalId: 3, name: 'Signup' }, { goalId: 7, name: 'Trial' }]);
    assert.equal(filterValueLabel(makeFilter('goal', 'is', '3|7'), names), 'Signup or Trial');
    assert.equal(filterValueLabel(makeFilter('goal', 'is', '3|9')), '3 or 9');
    assert.equal(filterValueLabel(makeFilter('goal', 'is', '9'), names), '9');
  });

  test("the dialog's value joins the view's filter of the same dimension and operator as an or, else replaces it", () => {
    const state = parseViewState('filter=country:DE&filter=page!:/a');
    const filters = (next: Filter) => withFilterValues(state, next).filters.map(filterParam);
    assert.deepEqual(filters(makeFilter('country', 'is', 'AT')), ['country:DE|AT', 'page!:/a']);
    assert.deepEqual(filters(makeFilter('country', 'is', 'DE')), ['country:DE', 'page!:/a'], 'a value already there is not listed twice');
    assert.deepEqual(filters(makeFilter('page', 'is_not', 'x\\|y')), ['country:DE', 'page!:/a|x\\|y'], 'a literal | stays one value');
    assert.deepEqual(filters(makeFilter('country', 'is_not', 'FR')), ['country!:FR', 'page!:/a'], 'another operator replaces');
    assert.deepEqual(filters(makeFilter('browser', 'is', 'Firefox')), ['country:DE', 'page!:/a', 'browser:Firefox']);
    const many = withFilterValues(parseViewState(`filter=country:${Array.from({ length: 20 }, (_, i) => `C${i}`).join('|')}`), makeFilter('country', 'is', 'XX'));
    assert.equal(many.filters[0]!.values.length, 20, 'at most 20 values');
  });

  test('an edited chip replaces its filter in its place; one on the new dimension elsewhere goes', () => {
    const state = parseViewState('filter=country:DE|AT&filter=page!:/a&filter=browser:Firefox');
    const edited = (from: QueryDimension, next: Filter) => withFilterReplaced(state, from, next).filters.map(filterParam);
    assert.deepEqual(edited('country', makeFilter('country', 'is', 'DE')), ['country:DE', 'page!:/a', 'browser:Firefox'], 'a value removed');
    assert.deepEqual(edited('country', makeFilter('country', 'is_not', 'DE|AT')), ['country!:DE|AT', 'page!:/a', 'browser:Firefox'], 'the operator changed');
    assert.deepEqual(edited('page', makeFilter('prop.plan', 'is', 'pro')), ['country:DE|AT', 'prop.plan:pro', 'browser:Firefox'], 'another dimension, in its place');
    assert.deepEqual(edited('country', makeFilter('browser', 'is', 'Chrome')), ['browser:Chrome', 'page!:/a'], 'the other browser filter goes');
    assert.deepEqual(edited('city', makeFilter('city', 'is', 'Paris')), ['country:DE|AT', 'page!:/a', 'browser:Firefox', 'city:Paris'], 'a filter no longer there is added');
  });
});

describe('finding values by name', () => {
  const row = (key: string, visitors: number): BreakdownRow => ({ key, visitors, views: visitors, pct: 0 });
  const countries = [row('US', 9), row('DZ', 8), row('DE', 7), row('AT', 6), row('NE', 5), row('(none)', 1)];
  const named = (search: string) => rowsNamed('country', countries, search, 20).map((r) => r.key);
  const nameOf = (code: string) => keyLabel('country', code);

  test("countries by their name in the runtime's language, its start first, then by code", () => {
    assert.equal(matchedByName('country'), true);
    assert.deepEqual(named(nameOf('DE')), ['DE']);
    assert.deepEqual(named(nameOf('DE').slice(0, 3).toUpperCase()).slice(0, 1), ['DE']);
    assert.deepEqual(named('de'), ['DE', ...countries.filter((r) => r.key !== 'DE' && nameOf(r.key).toLowerCase().includes('de')).map((r) => r.key)]);
    assert.deepEqual(named('zz-nowhere'), []);
    assert.deepEqual(named(''), countries.map((r) => r.key));
    assert.deepEqual(rowsNamed('country', countries, '', 2).map((r) => r.key), ['US', 'DZ']);
  });

  test('accents aside: a name with accents is found without them', () => {
    const rows = [row('AX', 1), row('CI', 1)];
    for (const r of rows) {
      const plain = nameOf(r.key).normalize('NFD').replace(/\p{M}/gu, '');
      assert.deepEqual(rowsNamed('country', rows, plain, 20).map((x) => x.key), [r.key]);
    }
  });

  test('countries are read whole (every code fits one read) and matched here; other dimensions by the API', () => {
    assert.deepEqual(valuesPage('country', 'Ger', 20), { limit: 300 });
    assert.deepEqual(valuesPage('browser', 'Fire', 20), { limit: 20, search: 'Fire' });
    for (const d of ['region', 'city', 'browser', 'os'] as const) assert.equal(matchedByName(d), false, d);
  });

  test('goals by their names (rows keyed by goal id), an id found as itself', () => {
    const goals = [row('3', 5), row('7', 2), row('12', 1)];
    const names = goalNamesOf([{ goalId: 3, name: 'Signup' }, { goalId: 7, name: 'Saw pricing' }, { goalId: 12, name: 'Priority support' }]);
    assert.equal(matchedByName('goal'), true);
    assert.deepEqual(rowsNamed('goal', goals, 'pri', 20, names).map((r) => r.key), ['12', '7'], 'a name starting with it first');
    assert.deepEqual(rowsNamed('goal', goals, '7', 20, names).map((r) => r.key), ['7']);
    assert.deepEqual(rowsNamed('goal', goals, 'sign', 20).map((r) => r.key), [], 'without names, ids only');
  });
});

describe('why a KPI has no value', () => {
  const page: Filter = { dimension: 'page', value: '/a', values: ['/a'] };
  const event: Filter = { dimension: 'event', value: 'signup', values: ['signup'] };
  const country: Filter = { dimension: 'country', value: 'FR', values: ['FR'] };

  test('no traffic metric is refused a filter: the dashboard reads visits under any filter (raw=clip); a null ratio under filters divides by none', () => {
    for (const metric of METRICS) {
      const kind = METRIC_REGISTRY[metric].computation.kind;
      const reason = nullReason(metric, [country, page, event]);
      if (kind === 'goals') assert.deepEqual(reason, { cause: 'filters', text: 'Not counted this far back under filters' }, metric);
      else if (kind === 'ratio') assert.equal(reason?.cause, 'empty', metric);
      else assert.equal(reason, undefined, metric);
    }
    assert.deepEqual(nullReason('bounceRate', [country, page]), { cause: 'empty', text: 'No visit entered on these pages' });
    assert.deepEqual(nullReason('bounceRate', [country]), { cause: 'empty', text: 'No visits under these filters' });
    assert.deepEqual(nullReason('avgDuration', [event]), { cause: 'empty', text: 'No visits under these filters' });
    assert.deepEqual(nullReason('timeOnPage', [page]), { cause: 'empty', text: 'No time on page recorded' });
    assert.deepEqual(nullReason('conversionRate', [country]), { cause: 'empty', text: 'No visitors under these filters' });
    assert.equal(nullReason('bounceRate', []), undefined, 'without filters a null may be a measure imported history lacks');
  });

  test('a metric counted over goals: no goals yet, or, under filters, days past the raw window', () => {
    assert.deepEqual(nullReason('conversions', []), { cause: 'goals', text: 'No goals yet' });
    assert.deepEqual(nullReason('conversions', [country], false), { cause: 'goals', text: 'No goals yet' });
    for (const hasGoals of [true, undefined]) {
      assert.deepEqual(nullReason('conversions', [country], hasGoals), { cause: 'filters', text: 'Not counted this far back under filters' });
    }
  });
});

describe('comparison', () => {
  test('kept in the address; the KPIs read the elapsed part of the compared period, the series the compared series', () => {
    const state = parseViewState('period=today&comparison=year');
    assert.equal(state.comparison, 'year');
    assert.equal(viewSearch(state), '?period=today&comparison=year');
    assert.equal(statsParams(state).toString(), 'period=today&raw=clip&comparison=year&elapsed=true');
    assert.equal(statsParams(withComparison(state, 'previous')).toString(), 'period=today&raw=clip&elapsed=true');
    assert.equal(statsParams(withComparison(state, 'off')).toString(), 'period=today&raw=clip&comparison=off');
    assert.equal(viewSearch(withComparison(state, 'previous')), '?period=today');
    const view = queryParams(state);
    assert.equal(timeseriesRead(view, 'visitors', 'year').params!.toString(), 'period=today&raw=clip&metric=visitors&compare=true&comparison=year');
    assert.equal(timeseriesRead(view, 'visitors', 'previous').params!.toString(), 'period=today&raw=clip&metric=visitors&compare=true');
    assert.equal(timeseriesRead(view, 'visitors', 'off').params!.toString(), 'period=today&raw=clip&metric=visitors&comparison=off');
  });

  test("a KPI's change: — against nothing, points for a ratio (from the registry's format), percent otherwise", () => {
    const cases: Array<[Parameters<typeof kpiChange>[0], Parameters<typeof kpiChange>[1], { text: string; good: boolean | null } | null]> = [
      ['visitors', { value: 12, prev: 0, deltaPct: 100 }, { text: '—', good: null }],
      ['visitors', { value: 12, prev: null, deltaPct: 0 }, { text: '—', good: null }],
      ['visitors', { value: null, prev: 3, deltaPct: 0 }, null],
      ['visitors', { value: 12, prev: 10, deltaPct: 20 }, { text: '+20%', good: true }],
      ['visitors', { value: 10, prev: 10, deltaPct: 0 }, { text: '0%', good: null }],
      ['bounceRate', { value: 0.01, prev: 0.007, deltaPct: 42.9 }, { text: '+0.3 pp', good: false }],
      ['bounceRate', { value: 0.4, prev: 0.52, deltaPct: -23.1 }, { text: '-12 pp', good: true }],
      ['bounceRate', { value: 0.4, prev: 0.4002, deltaPct: 0 }, { text: '0 pp', good: null }],
      ['bounceRate', { value: 0.3, prev: 0, deltaPct: 100 }, { text: '—', good: null }],
      ['avgDuration', { value: 30, prev: 60, deltaPct: -50 }, { text: '-50%', good: false }],
    ];
    for (const [metric, kpi, expected] of cases) assert.deepEqual(kpiChange(metric, kpi, 'en-US'), expected, `${metric} ${JSON.stringify(kpi)}`);
    assert.equal(formatPoints(-0.0125, 'en-US'), '-1.3 pp');
  });

  test("a goal's changes: its conversions' in percent, its rate's in points, each — without a base", () => {
    assert.deepEqual(percentChange('conversions', 100, 'en-US'), { text: '+100%', good: true });
    assert.deepEqual(percentChange('conversions', null, 'en-US'), { text: '—', good: null });
    assert.deepEqual(pointsChange('conversions', 0.3333, 0.25, 'en-US'), { text: '+8.3 pp', good: true });
    assert.deepEqual(pointsChange('conversions', 0.2, 0.25, 'en-US'), { text: '-5 pp', good: false });
    assert.deepEqual(pointsChange('conversions', 0.2, 0, 'en-US'), { text: '—', good: null });
    assert.deepEqual(['up', 'down', ''], [{ text: '', good: true }, { text: '', good: false }, { text: '', good: null }].map(changeClass));
  });
});

describe('labels', () => {
  test("the referrer's (none) reads Direct / None, other dimensions' stay (none); a country code's flag from its letters", () => {
    assert.equal(keyLabel('referrer', '(none)'), 'Direct / None');
    assert.equal(keyLabel('utm_source', '(none)'), '(none)');
    assert.equal(keyLabel('referrer', 'google.com'), 'google.com');
    assert.equal(countryFlag('country', 'FR'), '\u{1F1EB}\u{1F1F7}');
    assert.equal(countryFlag('country', 'US'), '🇺🇸');
    for (const [dimension, key] of [['country', '(none)'], ['country', 'fr'], ['country', 'FRA'], ['region', 'FR']] as const) assert.equal(countryFlag(dimension, key), '', `${dimension} ${key}`);
  });

  test("an imported city that kept its GeoNames id reads as one; a city's name, and other dimensions' keys, as they are", () => {
    assert.equal(keyLabel('city', 'geonames:6543210'), 'GeoNames city 6543210');
    assert.equal(filterValueLabel({ dimension: 'city', value: 'geonames:6543210', values: ['geonames:6543210'] }), 'GeoNames city 6543210');
    assert.equal(keyLabel('city', 'Berlin'), 'Berlin');
    assert.equal(keyLabel('city', 'geonames:x'), 'geonames:x');
    assert.equal(keyLabel('page', 'geonames:6543210'), 'geonames:6543210');
  });
});

describe('format', () => {
  test('counts and ratios in the locale', () => {
    assert.equal(formatCount(1234567, 'en-US'), '1,234,567');
    assert.equal(formatCount(1234567, 'de-DE'), '1.234.567');
    assert.equal(formatCount(1234567, 'fr-FR').replace(/\s/g, ' '), '1 234 567');
    assert.equal(formatRatio(0.4235, 'en-US'), '42.4%');
    assert.equal(formatRatio(0.4235, 'de-DE').replace(/\s/g, ' '), '42,4 %');
  });

  test('durations in hours, minutes and seconds', () => {
    assert.equal(formatDuration(45, 'en-US'), '45s');
    assert.equal(formatDuration(125.4, 'en-US'), '2m 5s');
    assert.equal(formatDuration(3725, 'en-US'), '1h 2m');
    assert.match(formatDuration(125, 'fr-FR'), /^2\s?min 5\s?s$/);
  });

  test('metrics and changes', () => {
    assert.equal(formatMetric('visitors', 1500, 'en-US'), '1,500');
    assert.equal(formatMetric('bounceRate', 0.5, 'en-US'), '50%');
    assert.equal(formatMetric('avgDuration', 61, 'en-US'), '1m 1s');
    assert.equal(formatMetric('conversions', null, 'en-US'), '–');
    assert.equal(formatChange(12.5, 'en-US'), '+12.5%');
    assert.equal(formatChange(-3, 'en-US'), '-3%');
    assert.equal(formatChange(0, 'en-US'), '0%');
    assert.equal(changeIsGood('bounceRate', -3), true);
    assert.equal(changeIsGood('visitors', -3), false);
  });

  test("bucket dates are written in the site's zone", () => {
    // 2026-03-01T23:30Z is already 2 March in Paris and still 1 March in New York.
    const t = Date.parse('2026-03-01T23:30:00Z');
    assert.match(formatBucket(t, 'day', 'Europe/Paris', 'en-GB'), /2 Mar 2026/);
    assert.match(formatBucket(t, 'day', 'America/New_York', 'en-GB'), /1 Mar 2026/);
    assert.match(formatBucket(t, 'hour', 'Europe/Paris', 'en-GB'), /Mon 2 Mar, 0?0:30/);
    assert.equal(formatBucket(t, 'month', 'Europe/Paris', 'en-GB'), 'March 2026');
    assert.equal(bucketStamp(t, 'day', 'Europe/Paris'), '2026-03-02');
    assert.equal(bucketStamp(t, 'hour', 'America/New_York'), '2026-03-01 18:30');
  });
});

describe('chart geometry', () => {
  const box = { width: 300, height: 120, left: 40, right: 10, top: 10, bottom: 20 };

  test('round y ticks above the highest value, buckets spread over the width', () => {
    assert.equal(niceStep(87, 4), 50);
    assert.equal(niceStep(1234, 4), 500);
    const g = chartGeometry([{ t: 0, value: 0 }, { t: 1, value: 87 }, { t: 2, value: 40 }], [{ t: -3, value: 10 }, { t: -2, value: 20 }, { t: -1, value: 30 }], box);
    assert.deepEqual(g.yTicks.map((t) => t.value), [0, 50, 100]);
    assert.deepEqual(g.xs, [40, 165, 290]);
    assert.equal(g.ys[0], g.baseline);
    assert.equal(g.line, 'M40.0,100.0L165.0,21.7L290.0,64.0');
    assert.equal(g.prevLine, 'M40.0,91.0L165.0,82.0L290.0,73.0');
    assert.match(g.area, /Z$/);
  });

  test('a null value breaks the line; a previous period shorter than the current one ends early', () => {
    const g = chartGeometry([{ t: 0, value: 5 }, { t: 1, value: null }, { t: 2, value: 5 }, { t: 3, value: 5 }], [{ t: -1, value: 5 }], box);
    assert.equal(g.line.split('M').length - 1, 2);
    assert.equal(g.prevLine.split(/[ML]/).length - 1, 1);
  });

  test("a previous period whose weeks fall in one bucket fewer or more is drawn whole, on steps of its own", () => {
    const weeks = (count: number, value: number) => Array.from({ length: count }, (_, i) => ({ t: i, value }));
    for (const prevCount of [52, 54]) {
      const g = chartGeometry(weeks(53, 5), weeks(prevCount, 4), box);
      const steps = g.prevLine.match(/[ML][\d.]+/g)!.map((step) => Number(step.slice(1)));
      assert.equal(steps.length, prevCount, 'every previous bucket on the line');
      assert.equal(steps[0], box.left);
      assert.equal(steps.at(-1), box.width - box.right, 'to the right edge');
    }
  });

  test('the bucket under way: the last one started, unless it is over', () => {
    const points = [{ t: 0, value: 5 }, { t: 10, value: 4 }, { t: 20, value: null }];
    assert.equal(partialBucket(points, 15, true), 1);
    assert.equal(partialBucket(points, 15, false), 1);
    assert.equal(partialBucket(points, 25, true), 2);
    assert.equal(partialBucket(points, 25, false), null);
    assert.equal(partialBucket(points, -1, true), null);
  });

  test('the bucket under way is off the line and the area, on a segment of its own', () => {
    const g = chartGeometry([{ t: 0, value: 5 }, { t: 1, value: 10 }, { t: 2, value: 1 }, { t: 3, value: null }], undefined, box, 6, 0, 2);
    assert.equal(g.line.split('L').length, 2, 'the line ends at the last complete bucket');
    assert.equal(g.partialLine, `M${g.xs[1]!.toFixed(1)},${g.ys[1]!.toFixed(1)}L${g.xs[2]!.toFixed(1)},${g.ys[2]!.toFixed(1)}`);
    assert.ok(g.area.includes(`L${g.xs[1]!.toFixed(1)},${g.baseline}L`), 'the area closes at the last complete bucket');
    assert.equal(chartGeometry([{ t: 0, value: 5 }], undefined, box).partialLine, '');
  });

  test('the pointer picks the nearest bucket', () => {
    assert.equal(nearestIndex([40, 165, 290], 100), 0);
    assert.equal(nearestIndex([40, 165, 290], 110), 1);
    assert.equal(nearestIndex([40, 165, 290], 1000), 2);
  });
});

describe('webhook statuses in words', () => {
  test('every URL refusal of the server has words; every status reads as a phrase', () => {
    // A reason the server adds without words in the catalogue fails the type-check of this line.
    const words: Record<RejectionReason, string> = siteSettings.refusals;
    for (const [reason, sentence] of Object.entries(words)) {
      assert.equal(statusInWords(`rejected:${reason}`), `Refused: ${sentence}`);
      assert.equal(refusalInWords(`rejected:${reason}: the webhook URL breaks a URL rule`), sentence);
    }
    assert.equal(refusalInWords('rejected:ip-literal: the webhook URL breaks a URL rule'), 'The host is an IP address: use the receiver’s DNS name instead.');
    assert.equal(statusInWords('succeeded'), 'Delivered');
    assert.equal(statusInWords('failed:http-503'), 'Failed: the receiver answered HTTP 503');
    assert.equal(statusInWords('failed:timeout'), 'Failed: no answer within 10 s');
    assert.equal(statusInWords('something-new'), 'something-new');
  });
});

describe('breakdown details', () => {
  const rows: BreakdownRow[] = [
    { key: 'b', visitors: 5, views: 9, pct: 0.5, bounceRate: 0.5, avgDuration: null },
    { key: 'a', visitors: 3, views: 3, pct: 0.3, bounceRate: 1, avgDuration: 12.5 },
    { key: 'c', visitors: 2, views: 4, pct: 0.2, bounceRate: null, avgDuration: 40 },
  ];
  test('sortRows: by a figure either way, rows without it last; by key; ties in the API order', () => {
    const keys = (order: RowOrder) => sortRows('page', rows, order).map((r) => r.key);
    assert.deepEqual(keys({ by: 'bounceRate', descending: true }), ['a', 'b', 'c']);
    assert.deepEqual(keys({ by: 'bounceRate', descending: false }), ['b', 'a', 'c']);
    assert.deepEqual(keys({ by: 'avgDuration', descending: false }), ['a', 'c', 'b']);
    assert.deepEqual(keys({ by: 'key', descending: false }), ['a', 'b', 'c']);
    assert.deepEqual(keys({ by: 'views', descending: true }), ['b', 'c', 'a']);
    assert.deepEqual(keys({ by: 'visitors', descending: true }), ['b', 'a', 'c'], 'the API order');
    const countries = [{ ...rows[0]!, key: 'DE' }, { ...rows[1]!, key: 'AT' }, { ...rows[2]!, key: 'FR' }];
    assert.deepEqual(sortRows('country', countries, { by: 'key', descending: false }).map((r) => r.key), ['AT', 'FR', 'DE'], 'Austria, France, Germany: by name');
    assert.deepEqual(sortRows('page', [rows[0]!, { ...rows[1]!, bounceRate: 0.5 }], { by: 'bounceRate', descending: false }).map((r) => r.key), ['b', 'a'], 'a tie keeps the API order');
  });
  test('includesFor: a bounce rate and duration under any filter (visits), time on page for pages, scroll depth for unfiltered pages', () => {
    const view = (...filters: string[]) => new URLSearchParams(filters.map((f) => ['filter', f]));
    assert.deepEqual(includesFor(view(), 'country'), ['bounceRate', 'avgDuration']);
    assert.deepEqual(includesFor(view('browser!:Chrome'), 'referrer'), ['bounceRate', 'avgDuration']);
    assert.deepEqual(includesFor(view('page:/'), 'country'), ['bounceRate', 'avgDuration'], 'a page filter keeps the visits holding the page');
    assert.deepEqual(includesFor(view(), 'page'), ['bounceRate', 'avgDuration', 'timeOnPage', 'scrollDepth']);
    assert.deepEqual(includesFor(view('country:DE'), 'page'), ['bounceRate', 'avgDuration', 'timeOnPage']);
    assert.deepEqual(includesFor(view(), 'prop.plan'), ['bounceRate', 'avgDuration']);
    // Web vitals have a view of their own: pages without filter, never a figure column.
    assert.deepEqual([includeApplies(view(), 'page', 'vitals'), includeApplies(view('country:DE'), 'page', 'vitals'), includeApplies(view(), 'hostname', 'vitals')], [true, false, false]);
  });
  test('breakdownCsv: the figures the rows carry, empty where null', () => {
    assert.equal(breakdownCsv('country', rows.slice(0, 2)), 'Country,Visitors,Views,Share of visitors,Bounce rate,Visit duration\r\nb,5,9,0.5,0.5,\r\na,3,3,0.3,1,12.5\r\n');
  });
  test('the dashboard refuses an unknown site as the server does', () => {
    const server = apiError('NOT_FOUND', 'site');
    const shown = siteNotFound();
    assert.deepEqual([shown.status, shown.code, shown.message, shown.reason], [server.status, server.code, server.message, server.reason]);
  });
});
