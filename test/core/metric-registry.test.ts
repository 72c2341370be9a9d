// The metric registry and what is derived from it: the filters each metric takes, the values the
// engine computes from summed measures, the dashboard's labels, formats and good direction.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { changeIsGood, type Metric, METRIC_REGISTRY, METRICS, metricTakesFilters, shownMetrics, type TrafficComputation } from '../../src/core/metric-registry.js';
import { DIMENSIONS, type Dimension, type Filter } from '../../src/core/vocabulary.js';
import { metricValue, needsSessions, ZERO_MEASURES } from '../../src/stats/measures.js';
import { formatMetric } from '../../web/lib/format.js';
import { names } from '../../src/core/messages/en/common.js';

const EVENT_SCOPED: readonly Dimension[] = ['page', 'event', 'hostname'];

/** docs/api.md, Metrics: which filters each metric takes. */
function expectedTakes(metric: Metric, dimensions: readonly Dimension[]): boolean {
  if (dimensions.length === 0) return true;
  // Conversions under filters are counted from raw events (docs/api.md, Conversions under filters).
  if (metric === 'visitors' || metric === 'pageviews' || metric === 'conversions' || metric === 'timeOnPage' || metric === 'conversionRate') return true;
  if (metric === 'bounceRate' || metric === 'avgDuration') return dimensions.every((d) => !EVENT_SCOPED.includes(d));
  return false;
}

const traffic = (metric: Metric) => METRIC_REGISTRY[metric].computation as TrafficComputation;

describe('metric registry', () => {
  test('the metrics, in the order of the stats answer and the tiles', () => {
    assert.deepEqual(METRICS, ['visitors', 'pageviews', 'sessions', 'bounceRate', 'avgDuration', 'timeOnPage', 'conversions', 'conversionRate']);
  });

  test("the metrics shown: time on page in visit duration's place under a page filter only, the conversion rate in bounce rate's and no pageviews under a goal filter only", () => {
    const shown = ['visitors', 'pageviews', 'sessions', 'bounceRate', 'avgDuration', 'conversions'];
    assert.deepEqual(shownMetrics([]), shown);
    assert.deepEqual(shownMetrics([{ dimension: 'country', value: 'DE', values: ['DE'] }]), shown);
    assert.deepEqual(shownMetrics([{ dimension: 'country', value: 'DE', values: ['DE'] }, { dimension: 'page', value: '/', values: ['/'], operator: 'is_not' }]), shown.map((m) => (m === 'avgDuration' ? 'timeOnPage' : m)));
    assert.deepEqual(shownMetrics([{ dimension: 'goal', value: '3', values: ['3'] }]), shown.filter((m) => m !== 'pageviews').map((m) => (m === 'bounceRate' ? 'conversionRate' : m)));
  });

  test('with raw=clip every metric takes every filter (visits under event filters)', () => {
    for (const metric of METRICS) for (const a of DIMENSIONS) assert.equal(metricTakesFilters(metric, [{ dimension: a, value: 'x', values: ['x'] }], true), true, `${metric} ${a}`);
  });

  test('metricTakesFilters over every metric and every one or two filter dimensions', () => {
    for (const metric of METRICS) {
      assert.equal(metricTakesFilters(metric, []), true, metric);
      for (const a of DIMENSIONS) {
        assert.equal(metricTakesFilters(metric, [{ dimension: a, value: 'x', values: ['x'] }]), expectedTakes(metric, [a]), `${metric} ${a}`);
        for (const b of DIMENSIONS) {
          if (a === b) continue;
          const filters = [
            { dimension: a, value: 'x', values: ['x'] },
            { dimension: b, value: 'y', values: ['y'] },
          ] satisfies Filter[];
          assert.equal(metricTakesFilters(metric, filters), expectedTakes(metric, [a, b]), `${metric} ${a} ${b}`);
        }
      }
    }
  });

  test('traffic metrics computed from summed measures, rounded as the API answers them', () => {
    const m = { ...ZERO_MEASURES, visitors: 7, pageviews: 19, events: 23, sessions: 9, bounces: 4, durationMs: 123_456 };
    assert.equal(metricValue(traffic('visitors'), m), 7);
    assert.equal(metricValue(traffic('pageviews'), m), 19);
    assert.equal(metricValue(traffic('sessions'), m), 9);
    assert.equal(metricValue(traffic('bounceRate'), m), 0.4444);
    assert.equal(metricValue(traffic('avgDuration'), m), 13.7);
    assert.equal(metricValue(traffic('bounceRate'), ZERO_MEASURES), null);
    assert.equal(metricValue(traffic('avgDuration'), ZERO_MEASURES), null);
    // Visits under event filters: the bounce rate over the landings, time on page over the engaged pageviews.
    const visits = { ...m, landings: 5, engagedMs: 50_500, engagedViews: 3 };
    assert.equal(metricValue(traffic('bounceRate'), visits), 0.8);
    assert.equal(metricValue(traffic('timeOnPage'), visits), 16.8);
    assert.equal(metricValue(traffic('timeOnPage'), m), null);
    assert.deepEqual(
      (['visitors', 'pageviews', 'sessions', 'bounceRate', 'avgDuration', 'timeOnPage'] as const).map((metric) => needsSessions(traffic(metric))),
      [false, false, false, true, true, true],
    );
    assert.deepEqual(METRIC_REGISTRY.conversions.computation, { kind: 'goals', measure: 'conversions' });
    // A goal filter's conversion rate: its converters over the visitors without it, read apart (none: null).
    assert.equal(metricValue(traffic('conversionRate'), { ...m, baseVisitors: 21 }), 0.3333);
    assert.equal(metricValue(traffic('conversionRate'), m), null);
    assert.equal(needsSessions(traffic('conversionRate')), false);
  });

  test('every metric has an English name, a format and a good direction', () => {
    assert.deepEqual(
      METRICS.map((metric) => names.metricNames[metric]),
      ['Visitors', 'Pageviews', 'Visits', 'Bounce rate', 'Visit duration', 'Time on page', 'Conversions', 'Conversion rate'],
    );
    assert.deepEqual(
      METRICS.map((metric) => formatMetric(metric, 61, 'en-US')),
      ['61', '61', '61', '6,100%', '1m 1s', '1m 1s', '61', '6,100%'],
    );
    assert.deepEqual(
      METRICS.map((metric) => changeIsGood(metric, 5)),
      [true, true, true, false, true, true, true, true],
    );
    assert.deepEqual(
      METRICS.map((metric) => changeIsGood(metric, -5)),
      [false, false, false, true, false, false, false, false],
    );
  });
});
