// The funnel walk (docs/api.md, funnels), in memory so that it is the same on every engine: per day and
// visitor, the first step-1 event enters; step k is reached by the first later event matching it,
// while less than `windowMinutes` have passed since the step-1 event. Which steps an event matches
// comes from the engine (src/stats/sql/goals.ts, funnelEvents), so the walk matches no pattern itself.

export interface FunnelEventRow {
  b: string; // day
  visitor_id: unknown;
  ts: unknown;
  /** The steps the event matches, bit k - 1 for step k. */
  steps: unknown;
}

/** Visitors reaching each of `stepCount` steps, per day. Rows must be ordered by day, visitor, ts. */
export function walkFunnel(rows: readonly FunnelEventRow[], stepCount: number, windowMinutes: number): Map<string, number[]> {
  const matchers = Array.from({ length: stepCount }, (_, k) => (row: FunnelEventRow) => (Number(row.steps) & (1 << k)) !== 0);
  const windowMs = windowMinutes * 60_000;
  const perDay = new Map<string, number[]>();
  let i = 0;
  while (i < rows.length) {
    const first = rows[i]!;
    let j = i;
    while (j < rows.length && rows[j]!.b === first.b && rows[j]!.visitor_id === first.visitor_id) j++;
    const reached = stepsReached(rows, i, j, matchers, windowMs);
    if (reached > 0) {
      let counts = perDay.get(first.b);
      if (!counts) perDay.set(first.b, (counts = matchers.map(() => 0)));
      for (let k = 0; k < reached; k++) counts[k]! += 1;
    }
    i = j;
  }
  return perDay;
}

function stepsReached(
  rows: readonly FunnelEventRow[],
  from: number,
  to: number,
  matchers: ReadonlyArray<(row: FunnelEventRow) => boolean>,
  windowMs: number,
): number {
  let at = from;
  while (at < to && !matchers[0]!(rows[at]!)) at++;
  if (at === to) return 0;
  const deadline = Number(rows[at]!.ts) + windowMs;
  let reached = 1;
  for (let k = 1; k < matchers.length; k++) {
    at++;
    while (at < to && Number(rows[at]!.ts) < deadline && !matchers[k]!(rows[at]!)) at++;
    if (at === to || Number(rows[at]!.ts) >= deadline) break;
    reached++;
  }
  return reached;
}
