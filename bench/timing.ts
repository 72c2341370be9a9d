// What the benches share to time a request: one warm-up run, then p50 and p95 over repeated runs.

/** p50 and p95 (ms) of `repeat` runs of `run`, after one run that warms caches and connections. */
export async function timeIt(run: () => Promise<unknown>, repeat: number): Promise<{ p50: number; p95: number }> {
  return (await timeInTurn([run], repeat))[0]!;
}

/**
 * p50 and p95 (ms) of each of `runs`, run in turn `repeat` times (one of each per round, after a
 * warm-up round): requests compared with each other meet the same moments of the machine's load
 * and of the store's background work, rather than one of them the quiet minutes and another the busy ones.
 */
export async function timeInTurn(runs: ReadonlyArray<() => Promise<unknown>>, repeat: number): Promise<Array<{ p50: number; p95: number }>> {
  for (const run of runs) await run();
  const samples = runs.map((): number[] => []);
  for (let i = 0; i < repeat; i++) {
    for (const [n, run] of runs.entries()) {
      const start = performance.now();
      await run();
      samples[n]!.push(performance.now() - start);
    }
  }
  return samples.map((s) => {
    s.sort((a, b) => a - b);
    const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
    return { p50: at(0.5), p95: at(0.95) };
  });
}
