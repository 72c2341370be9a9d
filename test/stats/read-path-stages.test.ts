// The read path goes one way (docs/read-path.md, "Six stages"): a request passes parse, the
// plan's inputs, plan, then compiles every statement its kind needs before the first one runs, and
// never calls back into an earlier stage. Checked on the calls themselves: every function the read
// path's modules export is wrapped by a module hook (../helpers/stage-trace-hook.mjs) that records
// each call in order, beside the event store's statements (../helpers/read-path-trace.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { Step } from '../helpers/read-path-trace.js';

const STAGE_OF_MODULE: ReadonlyArray<[RegExp, 'parse' | 'inputs' | 'plan']> = [
  [/^(core\/query|stats\/first-data-day)$/, 'parse'],
  [/^stats\/(inputs|imported-days)$/, 'inputs'],
  [/^stats\/(planner|windows)$/, 'plan'],
];
const stageOf = (module: string) => STAGE_OF_MODULE.find(([pattern]) => pattern.test(module))?.[1];
const isCompile = (step: Step) => 'module' in step && step.module.startsWith('stats/sql/');
const isQuery = (step: Step): step is { query: string } => 'query' in step;

/**
 * What is compiled after a read's first statement ran, the only exception to compile once: the
 * second read of a breakdown, which takes the first's keys (the page's scroll depth and web vitals
 * are read for the keys on the page). The leaves its builders call (`stats/sql/filters`: day
 * bounds) are traced as calls of their own, and come after it.
 */
const SECOND_READS = new Set(['scrollDepthStatements', 'vitalsStatements']);
const LEAVES = 'stats/sql/filters';

test('a read passes parse, inputs, plan, compile and run once each, in that order', () => {
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/helpers/stage-trace.mjs', 'test/helpers/read-path-trace.ts'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(child.status, 0, child.stderr);
  const reads = JSON.parse(child.stdout) as Record<string, Step[]>;
  assert.ok(Object.keys(reads).length >= 10, 'every kind of read was traced');
  for (const [label, steps] of Object.entries(reads)) {
    const at = (find: (s: Step) => boolean) => steps.findIndex(find);
    const planStarts = at((s) => 'module' in s && s.name === 'planQuery');
    const inputsStart = at((s) => 'module' in s && s.name === 'planInputs');
    const runStarts = at((s) => 'module' in s && s.module.startsWith('stats/read/'));
    assert.ok(inputsStart > 0 && planStarts > inputsStart && runStarts > planStarts, `${label}: parse, inputs, plan, run in order`);
    // Parse, inputs and plan: each a block of its own, none entered again once a later one started.
    steps.forEach((s, i) => {
      const stage = 'module' in s ? stageOf(s.module) : undefined;
      if (stage === 'parse') assert.ok(i < inputsStart, `${label}: parse after the inputs (${JSON.stringify(s)})`);
      if (stage === 'inputs') assert.ok(i >= inputsStart && i < planStarts, `${label}: inputs after the plan (${JSON.stringify(s)})`);
      if (stage === 'plan' && i >= runStarts) assert.fail(`${label}: the plan's ${JSON.stringify(s)} called while running`);
    });
    // The plan is pure: no statement between its start and the run.
    assert.ok(!steps.slice(planStarts, runStarts).some(isQuery), `${label}: the plan ran a statement`);
    // Compile once: every statement of the read is compiled before the first one runs; after it, only a second read's.
    const firstRun = steps.findIndex((s, i) => i > runStarts && isQuery(s));
    assert.ok(firstRun > runStarts, `${label}: the run asks the event store`);
    assert.ok(steps.slice(runStarts, firstRun).some(isCompile), `${label}: compiled in the run's first step`);
    const compiledLate = steps.slice(firstRun).filter((s): s is { module: string; name: string } => isCompile(s));
    const secondRead = compiledLate.findIndex((s) => SECOND_READS.has(s.name));
    compiledLate.forEach((late, i) => {
      const allowed = SECOND_READS.has(late.name) || (late.module === LEAVES && secondRead >= 0 && i > secondRead);
      assert.ok(allowed, `${label}: ${JSON.stringify(late)} compiled after the first statement ran`);
    });
    const builders = compiledLate.filter((s) => s.module !== LEAVES).map((s) => s.name);
    if (label.includes('scroll depth')) assert.deepEqual([...new Set(builders)], [...SECOND_READS], `${label}: its second read`);
  }
});
