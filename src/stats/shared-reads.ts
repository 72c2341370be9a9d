// Identical read statements asked while one of them runs share its answer. A dashboard asks its
// nine reads at once, and they ask the same statements within milliseconds of each other: every
// breakdown and the goals read the period's visitors per day, each read the site's imported days
// (about 30 statements for 16 distinct ones on a year view). Sharing runs each once, so the reads
// of a load wait for less work on the engine's few connections and cores. A statement asked after
// the shared one ended runs anew: answers are never older than the statement's own start.
import type { Sql } from '../sql/sql.js';
import type { EventReader } from '../storage/events/types.js';

/**
 * One text per statement and parameters (a bigint as an object holding its digits: no other
 * parameter is an object, so none reads alike).
 */
export const statementKey = (statement: Sql): string =>
  `${statement.text}\u0000${JSON.stringify(statement.params, (_, v: unknown) => (typeof v === 'bigint' ? { bigint: `${v}` } : v))}`;

/**
 * `reader`, with each statement running at most once at a time: a caller asking one that runs gets
 * its answer (the same rows: callers read them, never change them).
 */
export function sharingReads(reader: EventReader): EventReader {
  const running = new Map<string, Promise<unknown>>();
  function shared<T>(key: string, run: () => Promise<T>): Promise<T> {
    const found = running.get(key);
    if (found) return found as Promise<T>;
    const answer = run().finally(() => running.delete(key));
    running.set(key, answer);
    return answer;
  }
  return {
    get dialect() {
      return reader.dialect;
    },
    query: (statement, options) => shared(`rows\u0000${statementKey(statement)}`, () => reader.query(statement, options)),
    queryPage: (statement, options) => shared(`page\u0000${statementKey(statement)}`, () => reader.queryPage(statement, options)),
  };
}
