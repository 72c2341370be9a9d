// The maintenance tasks of the rollup jobs.
import type { MaintenanceRegistry } from '../../core/maintenance.js';
import { runRollups, type RollupDeps, type RollupOptions } from './run.js';
import { runRetention } from './retention.js';

/** Registers the `rollup` (every 10 minutes) and `retention` (hourly) maintenance tasks. */
export function registerRollupTasks(maintenance: MaintenanceRegistry, deps: RollupDeps, options: RollupOptions = {}): void {
  maintenance.register({ name: 'rollup', everyMs: 10 * 60_000, run: (now) => runRollups(deps, now, options) });
  maintenance.register({ name: 'retention', everyMs: 60 * 60_000, run: (now) => runRetention(deps, now) });
}
