// A second process reserving sign-in attempts on a metadata database, for the account store's
// contract: `node --import tsx test/helpers/reserve-attempts.ts '<json>'` with {location, attempts:
// [{emailKey, clientGroup}], now, since, max, startAt} reserves them all at once, at the wall-clock
// instant `startAt` (so that processes started together overlap), and prints how many were granted.
import { openMetaStores, type MetaLocation } from '../../src/storage/meta/open.js';
import type { AttemptKey } from '../../src/entities/accounts.js';

const job = JSON.parse(process.argv[2]!) as { location: MetaLocation; attempts: AttemptKey[]; now: number; since: number; max: number; startAt: number };
const stores = await openMetaStores(job.location);
try {
  await new Promise((resolve) => setTimeout(resolve, job.startAt - Date.now()));
  const granted = await Promise.all(job.attempts.map((key) => stores.accounts.reserveAttempt(key, job.now, job.since, job.max)));
  process.stdout.write(String(granted.filter(Boolean).length));
} finally {
  await stores.meta.close();
}
