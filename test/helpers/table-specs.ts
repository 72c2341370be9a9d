// The smallest table the read side could own: per site and day, a count keyed by itself.
import type { TableSpec } from '../../src/storage/events/types.js';

/** A table `name` of (site_id, day, n), keyed by n; a scratch one with `scratch`. */
export function countTable(name: string, options: { scratch?: true } = {}): TableSpec {
  return {
    name,
    columns: [
      { name: 'site_id', type: 'VARCHAR', nullable: false },
      { name: 'day', type: 'DATE', nullable: false },
      { name: 'n', type: 'BIGINT', nullable: false },
    ],
    dayColumn: 'day',
    key: ['n'],
    ...options,
  };
}
