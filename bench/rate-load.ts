// A fixed-rate run of bench/ingest's live traffic in a process of its own, so that what the parent
// does meanwhile (sending a 40 MB import, collecting its garbage) does not delay the requests it
// times. Settings from the environment; prints one line: LOAD_RESULT {json}.
import { eventRequests, load } from './traffic.js';

const env = process.env;
const result = await load(env.BENCH_URL!, eventRequests(env.BENCH_SITE!, env.BENCH_RELAY_KEY!, env.BENCH_DOMAIN!), {
  connections: Number(env.BENCH_CONNECTIONS),
  overallRate: Number(env.BENCH_RATE),
  seconds: Number(env.BENCH_SECONDS),
});
console.log(`LOAD_RESULT ${JSON.stringify(result)}`);
