// bench/import-isolation: two Umami uploads in which every line is a new session, sent at once with
// a manage key, while another organisation's dashboard reads run in a loop (test/helpers/import-isolation.ts):
// every read's status, /healthz's worst wait and the process's peak resident memory.
//
//   npm run bench:import-isolation      BENCH_LINES=N (415 000 a file: 9.3 MB of gzip each),
//                                       BENCH_DAYS=N (30), BENCH_BUDGET_MB=N (the default budget),
//                                       BENCH_PATH_BYTES=N (every path N bytes, each its own; short ones by default)
import { importIsolation } from '../test/helpers/import-isolation.js';

const run = await importIsolation({
  lines: Number(process.env.BENCH_LINES ?? 415_000),
  days: Number(process.env.BENCH_DAYS ?? 30),
  pathBytes: process.env.BENCH_PATH_BYTES ? Number(process.env.BENCH_PATH_BYTES) : undefined,
  budgetMb: process.env.BENCH_BUDGET_MB ? Number(process.env.BENCH_BUDGET_MB) : undefined,
});
const { logs, ...figures } = run;
console.log(JSON.stringify(figures, null, 2));
if (process.env.BENCH_LOGS) console.log(logs);
