// A queue that runs at most `concurrency` tasks at once and keeps at most `maxWaiting` waiting: a
// task arriving when both are full is refused at once (`busy()` is thrown), so a burst costs a
// bounded amount of work and memory and its excess gets a fast answer instead of a long wait.

export class BoundedQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    private readonly busy: () => Error,
  ) {}

  /** How many tasks run now. */
  get active(): number {
    return this.running;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else if (this.waiting.length < this.maxWaiting) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else throw this.busy();
    try {
      return await task();
    } finally {
      // A finished task hands its place to the first waiting one, so `running` never overshoots.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
