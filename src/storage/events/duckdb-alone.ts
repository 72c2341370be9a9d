// A DuckDB statement refused for want of memory runs again once, alone. DuckDB has one buffer pool
// for every connection of a database: an import's rollup and another tenant's dashboard read that
// run at once under a small pool can each find it full of the other's pinned blocks and fail
// ("Out of Memory Error"), where either alone completes (bench/import-isolation). The retry waits
// until no other statement of the store runs, holds new ones back meanwhile, and gives back the pool
// as soon as it ends: readers wait for one statement, and no read fails because of an import.

/** A store's statements, for its idle release and the retries here: how many were asked, how many run, and what one waits for before it starts. */
export interface Activity {
  statements: number;
  running: number;
  gate: Promise<void>;
  /** The retry running alone or waiting to, after which the next one takes its turn. */
  alone: Promise<void>;
  /** Retries running or waiting (an idle release waits for them: it would lower the pool under one). */
  retrying: number;
}

export const newActivity = (): Activity => ({ statements: 0, running: 0, gate: Promise.resolve(), alone: Promise.resolve(), retrying: 0 });

/** DuckDB's refusal of a statement that its buffer pool could not hold (it names no other error so). */
export const isOutOfMemory = (err: unknown): boolean => err instanceof Error && err.message.startsWith('Out of Memory Error');

/** How often a retry waiting for the statements under way to end looks again. */
const DRAIN_POLL_MS = 2;

/**
 * `work` on a connection counted in `activity.running`; refused for want of memory, run once more
 * with no other statement of the store under way. `work` must leave nothing behind when it fails
 * (a transaction rolled back).
 */
export async function retriedAloneOnOutOfMemory<T>(activity: Activity, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!isOutOfMemory(err)) throw err;
  }
  // This statement stops counting as running while it waits, so that two retries wait for each other's turn, not for each other.
  activity.running--;
  activity.retrying++;
  let release!: () => void;
  const turn = activity.alone;
  activity.alone = new Promise<void>((resolve) => (release = resolve));
  await turn;
  const heldBack = activity.gate;
  let reopen!: () => void;
  activity.gate = heldBack.then(() => new Promise<void>((resolve) => (reopen = resolve)));
  try {
    await heldBack;
    while (activity.running > 0) await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    activity.running++;
    return await work();
  } finally {
    // `reopen` is set once the gate's earlier holder (an idle release) let go, which `heldBack` awaited.
    reopen?.();
    release();
    activity.retrying--;
  }
}
