// Reading svc's Prometheus text (`/metrics`) in tests.

/** The sum of the samples of a `/metrics` text whose line matches `line` (0 when none does). */
export function sumOfSamples(metricsText: string, line: RegExp): number {
  const samples = metricsText.split('\n').filter((l) => !l.startsWith('#') && line.test(l));
  return samples.reduce((sum, sample) => sum + Number(sample.split(' ').pop()), 0);
}
