// Periodic jobs (rollups, retention, salts, …) registered by name. The worker runs them on a
// schedule and `POST /admin/v1/maintenance/run` runs them on demand.

/** Every periodic job's name (docs/operations.md describes each); the CLI's usage lists them. */
export const MAINTENANCE_TASKS = ['salts', 'sessions', 'rollup', 'retention', 'alerts', 'alert-history', 'digests', 'imports'] as const;
export type MaintenanceTaskName = (typeof MAINTENANCE_TASKS)[number];

export interface MaintenanceTask {
  name: MaintenanceTaskName;
  /** How often the worker runs it. */
  everyMs: number;
  run(now: number): Promise<void>;
}

export class MaintenanceRegistry {
  private readonly tasks = new Map<string, MaintenanceTask>();

  register(task: MaintenanceTask): void {
    if (this.tasks.has(task.name)) throw new Error(`maintenance task ${task.name} registered twice`);
    this.tasks.set(task.name, task);
  }

  names(): string[] {
    return [...this.tasks.keys()];
  }

  get(name: string): MaintenanceTask | undefined {
    return this.tasks.get(name);
  }

  /** Runs the named tasks (all when omitted) in registration order; returns what ran. */
  async run(now: number, names?: readonly string[]): Promise<string[]> {
    const chosen = names === undefined ? this.names() : this.names().filter((n) => names.includes(n));
    for (const name of chosen) await this.tasks.get(name)!.run(now);
    return chosen;
  }
}
