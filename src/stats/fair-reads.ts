// The event store's few read connections, shared fairly between organisations: a statement waits
// behind its own organisation's statements, not behind another's burst (src/core/fair-share.ts).
// Which organisation reads is the request's (`readingFor`), carried to its statements through the
// async context: the statements of one request are asked from deep in the read path and shared
// (src/stats/shared-reads.ts) by one reader of every request.
import { AsyncLocalStorage } from 'node:async_hooks';
import { FairShare } from '../core/fair-share.js';
import type { EventReader } from '../storage/events/types.js';

const organisation = new AsyncLocalStorage<number>();

/** The key of the statements read outside any organisation's request (the worker's, the service's own). */
const SERVICE_READS = 'service';

/** Runs `work` with the statements it reads counted as `orgId`'s. */
export function readingFor<T>(orgId: number, work: () => Promise<T>): Promise<T> {
  return organisation.run(orgId, work);
}

/** The key of the statements asked now: the organisation whose request asks them. */
function readerKey(): string {
  const orgId = organisation.getStore();
  return orgId === undefined ? SERVICE_READS : `org:${orgId}`;
}

/** `reader`, each of its statements run once `share` gives the asking organisation a slot. */
export function fairReads(reader: EventReader, share: FairShare): EventReader {
  return {
    get dialect() {
      return reader.dialect;
    },
    query: (statement, options) => share.run(readerKey(), () => reader.query(statement, options)),
    queryPage: (statement, options) => share.run(readerKey(), () => reader.queryPage(statement, options)),
  };
}
