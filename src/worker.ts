// The worker role: runs each maintenance task on its own period. A task that fails is logged and
// tried again at its next period; a slow task never overlaps itself.
import type { AppContext } from './context.js';

export class Worker {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly ctx: AppContext) {}

  start(): void {
    for (const name of this.ctx.maintenance.names()) {
      const task = this.ctx.maintenance.get(name)!;
      let busy = false;
      const timer = setInterval(() => {
        if (busy || this.stopped) return;
        busy = true;
        const run = task
          .run(this.ctx.clock.now())
          .catch((err) => this.ctx.log.error({ err, task: name }, 'maintenance task failed'))
          .finally(() => {
            busy = false;
            this.running.delete(run);
          });
        this.running.add(run);
      }, task.everyMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Stops scheduling and waits for the runs under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    await Promise.all(this.running);
  }
}
