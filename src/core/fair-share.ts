// A few slots (an event store's read connections) shared fairly between keys (organisations): each
// key's tasks wait in a queue of its own, and a slot that frees goes to the next key in turn that
// has one waiting, so a task waits behind its own key's tasks and at most one of each other key's.
// No key holds every slot: one stays for the others, so a burst of long reads of one organisation
// leaves another's reads a slot free at once.

interface KeyQueue {
  held: number;
  waiting: Array<() => void>;
}

export class FairShare {
  private readonly keys = new Map<string, KeyQueue>();
  /** The keys with a task waiting, in the order they are served: a key served goes to the back. */
  private readonly turns: string[] = [];
  private held = 0;
  /** The most slots one key holds at once. */
  readonly perKey: number;

  constructor(readonly slots: number) {
    this.perKey = Math.max(1, slots - 1);
  }

  /** Runs `task` once `key` is given a slot, and gives the slot back when it settles. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let queue = this.keys.get(key);
    if (!queue) this.keys.set(key, (queue = { held: 0, waiting: [] }));
    if (this.held < this.slots && queue.held < this.perKey && queue.waiting.length === 0) {
      this.held++;
      queue.held++;
    } else {
      // The slot is counted as held by whoever hands it over (`handOut`).
      await new Promise<void>((resolve) => {
        if (queue.waiting.push(resolve) === 1) this.turns.push(key);
      });
    }
    try {
      return await task();
    } finally {
      this.held--;
      queue.held--;
      if (queue.held === 0 && queue.waiting.length === 0) this.keys.delete(key);
      this.handOut();
    }
  }

  /** Slots `key` holds now, and its tasks waiting. */
  state(key: string): { held: number; waiting: number } {
    const queue = this.keys.get(key);
    return { held: queue?.held ?? 0, waiting: queue?.waiting.length ?? 0 };
  }

  /** Free slots to the waiting keys in turn, skipping a key that holds its most. */
  private handOut(): void {
    for (let i = 0; i < this.turns.length && this.held < this.slots; ) {
      const key = this.turns[i]!;
      const queue = this.keys.get(key)!;
      if (queue.held >= this.perKey) {
        i++;
        continue;
      }
      this.turns.splice(i, 1);
      this.held++;
      queue.held++;
      queue.waiting.shift()!();
      if (queue.waiting.length > 0) this.turns.push(key);
    }
  }
}
