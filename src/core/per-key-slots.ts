// At most `limit` tasks at once per key (a reader: an API key or a user). A task past the limit waits
// for a slot, in arrival order, while fewer than `maxWaiting` of its key wait; past that it is
// refused at once. One reader cannot hold every connection of the event store with long reads, and
// a dashboard's panels, read together, run a few at a time instead of failing.

interface KeySlots {
  held: number;
  waiting: Array<() => void>;
}

export class PerKeySlots {
  private readonly keys = new Map<string, KeySlots>();

  constructor(
    readonly limit: number,
    readonly maxWaiting: number,
  ) {}

  /**
   * A slot of `key`, once one is free; the function returned gives it back (to the next waiter, if
   * any). Null, at once, when `maxWaiting` tasks of the key wait already.
   */
  async take(key: string): Promise<(() => void) | null> {
    let slots = this.keys.get(key);
    if (!slots) this.keys.set(key, (slots = { held: 0, waiting: [] }));
    if (slots.held < this.limit) slots.held++;
    else if (slots.waiting.length >= this.maxWaiting) return null;
    // A slot given back passes to the first waiter as it is: `held` stays.
    else await new Promise<void>((resolve) => slots.waiting.push(resolve));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = slots.waiting.shift();
      if (next) next();
      else if (--slots.held === 0) this.keys.delete(key);
    };
  }

  /** Slots `key` holds now, and tasks of it waiting. */
  state(key: string): { held: number; waiting: number } {
    const slots = this.keys.get(key);
    return { held: slots?.held ?? 0, waiting: slots?.waiting.length ?? 0 };
  }
}
