// The dashboard's pure modules: CSV export text, the address <-> view state, locale formatting.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chartGeometry, nearestIndex, niceStep } from '../../web/lib/chart.js';
import { csvField, toCsv } from '../../web/lib/csv.js';
import { bucketStamp, changeIsGood, formatBucket, formatChange, formatCount, formatDuration, formatMetric, formatRatio } from '../../web/lib/format.js';
import { parseViewState, queryParams, viewSearch, withFilter, withMetric, withoutFilter, withPeriod } from '../../web/lib/view-state.js';
import { parseCsv } from '../helpers/csv.js';

describe('csv', () => {
  test('a header row, CRLF records, fields quoted as RFC 4180 says', () => {
    const text = toCsv(['key', 'visitors'], [['/a,b', 3], ['say "hi"', 2], ['two\nlines', 1], [null, 0]]);
    assert.equal(text, 'key,visitors\r\n"/a,b",3\r\n"say ""hi""",2\r\n"two\nlines",1\r\n,0\r\n');
    assert.deepEqual(parseCsv(text), [['key', 'visitors'], ['/a,b', '3'], ['say "hi"', '2'], ['two\nlines', '1'], ['', '0']]);
  });

  test('text that a spreadsheet reads as a formula is neutralised; numbers are not', () => {
    assert.equal(csvField('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
    for (const [cell, field] of [
      ['=1+1', "'=1+1"],
      ['+1+1', "'+1+1"],
      ['-1+1', "'-1+1"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\t=1+1', "'\t=1+1"],
      ['\r=1+1', `"'\r=1+1"`],
      ['\n=1+1', `"'\n=1+1"`],
      ['\r\n=1+1', `"'\r\n=1+1"`],
      ['a=1', 'a=1'],
      [' =1', ' =1'],
    ] as const) {
      assert.equal(csvField(cell), field, JSON.stringify(cell));
    }
    assert.equal(csvField(-12.5), '-12.5');
    assert.equal(csvField('/pricing'), '/pricing');
    assert.equal(csvField(Number.NaN), '');
  });
});

describe('view state', () => {
  test('defaults: 30d, no filter, visitors; written back as an empty query', () => {
    const state = parseViewState('');
    assert.deepEqual(state, { period: { preset: '30d' }, filters: [], metric: 'visitors' });
    assert.equal(viewSearch(state), '');
  });

  test('an address round-trips: preset, repeated filters, metric', () => {
    const search = '?period=year&filter=country%3AFR&filter=page%3A%2Fa%3Ab&metric=pageviews';
    const state = parseViewState(search);
    assert.deepEqual(state, { period: { preset: 'year' }, filters: [{ dimension: 'country', value: 'FR' }, { dimension: 'page', value: '/a:b' }], metric: 'pageviews' });
    assert.equal(viewSearch(state), search);
    assert.equal(queryParams(state).toString(), 'period=year&filter=country%3AFR&filter=page%3A%2Fa%3Ab');
    assert.equal(queryParams(state, { filters: false }).toString(), 'period=year');
  });

  test('from + to take priority over period; a half range is ignored', () => {
    assert.deepEqual(parseViewState('period=7d&from=2026-01-01&to=2026-01-31').period, { from: '2026-01-01', to: '2026-01-31' });
    assert.deepEqual(parseViewState('period=7d&from=2026-01-01').period, { preset: '7d' });
    assert.equal(viewSearch(parseViewState('from=2026-01-01&to=2026-01-31')), '?from=2026-01-01&to=2026-01-31');
  });

  test('what an address cannot mean falls back to the default', () => {
    const state = parseViewState('period=decade&metric=money&filter=colour:red&filter=page:&filter=nocolon&filter=:x');
    assert.deepEqual(state, { period: { preset: '30d' }, filters: [], metric: 'visitors' });
  });

  test('one filter per dimension: adding replaces, removing keeps the others in order', () => {
    let state = parseViewState('filter=country:FR&filter=device:mobile');
    state = withFilter(state, 'country', 'DE');
    assert.deepEqual(state.filters, [{ dimension: 'country', value: 'DE' }, { dimension: 'device', value: 'mobile' }]);
    state = withFilter(state, 'browser', 'Firefox');
    assert.deepEqual(withoutFilter(state, 'country').filters.map((f) => f.dimension), ['device', 'browser']);
    assert.deepEqual(parseViewState('filter=country:FR&filter=country:DE').filters, [{ dimension: 'country', value: 'DE' }]);
    assert.equal(viewSearch(withMetric(withPeriod(state, { preset: '7d' }), 'bounceRate')), '?period=7d&filter=country%3ADE&filter=device%3Amobile&filter=browser%3AFirefox&metric=bounceRate');
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

  test('the pointer picks the nearest bucket', () => {
    assert.equal(nearestIndex([40, 165, 290], 100), 0);
    assert.equal(nearestIndex([40, 165, 290], 110), 1);
    assert.equal(nearestIndex([40, 165, 290], 1000), 2);
  });
});
