// An EventStore seen through a switch: while `failing` is set, appends fail as an unreachable
// store's do; everything else goes to the real store underneath.
import type { EventStore } from '../../src/storage/events/types.js';

export class StoreSwitch {
  failing = false;
  /** Appends refused while failing. */
  refused = 0;

  wrap(store: EventStore): EventStore {
    const appendWhileUp: EventStore['append'] = async (rows, batchId) => {
      if (this.failing) {
        this.refused++;
        throw new Error('connect ECONNREFUSED (the test switched the event store off)');
      }
      return store.append(rows, batchId);
    };
    return {
      get dialect() {
        return store.dialect;
      },
      get id() {
        return store.id;
      },
      get readSlots() {
        return store.readSlots;
      },
      init: () => store.init(),
      createTables: (specs) => store.createTables(specs),
      append: appendWhileUp,
      appendRows: (table, rows) => store.appendRows(table, rows),
      beginBulk: () => store.beginBulk(),
      whileImporting: (work) => store.whileImporting(work),
      releaseIdleMemory: () => store.releaseIdleMemory(),
      query: (query, options) => store.query(query, options),
      queryPage: (query, options) => store.queryPage(query, options),
      replaceRows: (table, scope, rows) => store.replaceRows(table, scope, rows),
      replaceTogether: (replacements) => store.replaceTogether(replacements),
      close: () => store.close(),
    };
  }
}
