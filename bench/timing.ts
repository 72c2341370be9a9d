// What the benches share to time a request: one warm-up run, then p50 and p95 over repeated runs.

/** p50 and p95 (ms) of `repeat` runs of `run`, after one run that warms caches and connections. */
export async function timeIt(run: () => Promise<unknown>, repeat: number): Promise<{ p50: number; p95: number }> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}
