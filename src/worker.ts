// The worker role: runs each maintenance task on its own period. A task that fails is logged and
// tried again at its next period; a slow task never overlaps itself.
import type { AppContext } from './context.js';

/**
 * A task first runs this long after start, or after its period if that is shorter: a process
 * restarted more often than an hourly task's period (a crash loop, frequent deploys) still runs it.
 */
const FIRST_RUN_AFTER_MS = 5 * 60_000;

export class Worker {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly ctx: Pick<AppContext, 'maintenance' | 'clock' | 'log'>,
    private readonly firstRunAfterMs = FIRST_RUN_AFTER_MS,
  ) {}

  start(): void {
    for (const name of this.ctx.maintenance.names()) {
      const task = this.ctx.maintenance.get(name)!;
      let busy = false;
      const tick = () => {
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
      };
      this.schedule(setTimeout, () => {
        tick();
        this.schedule(setInterval, tick, task.everyMs);
      }, Math.min(task.everyMs, this.firstRunAfterMs));
    }
  }

  private schedule(timer: typeof setTimeout | typeof setInterval, run: () => void, ms: number): void {
    if (this.stopped) return;
    const handle = timer(run, ms);
    // Timers never keep the process alive: stopping is the server's decision.
    handle.unref();
    this.timers.push(handle);
  }

  /** Stops scheduling and waits for the runs under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    // clearTimeout clears intervals too: Node's timers share one handle type.
    for (const t of this.timers) clearTimeout(t);
    await Promise.all(this.running);
  }
}
