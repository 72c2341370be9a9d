// What the importing thread tells the thread reading a raw-event export (raw-event-worker.ts),
// through memory both share rather than messages (a message per write of an upload or per batch
// taken cost the importing thread more than the reading saved): how many batches it took, and how
// much of an upload still arriving is on disk.
import type { ArrivalState } from './upload-arrival.js';

/**
 * Positions in the shared counters. A wake-up costs the waker a system call, so only a waiting
 * reader is woken: the count of batches taken has the count the reader waits for (0: it does not
 * wait), the upload's changes a flag set while the reader waits.
 */
const TAKEN = 0;
const TAKEN_AWAITED = 1;
const CHANGES = 2;
const WAITING_CHANGES = 3;
const STATE = 4;
const STATES: readonly ArrivalState[] = ['arriving', 'whole', 'cut'];

export class ThreadSignals {
  private readonly counters: Int32Array;
  /** Bytes of the upload on disk: a double (up to 2 GiB and more), written before CHANGES moves. */
  private readonly size: Float64Array;

  /** Over `memory` (ThreadSignals.memory()), the same on both threads. */
  constructor(readonly memory: SharedArrayBuffer = new SharedArrayBuffer(32)) {
    this.counters = new Int32Array(memory, 0, 6);
    this.size = new Float64Array(memory, 24, 1);
  }

  // The importing thread's side.

  tookBatch(): void {
    const taken = Atomics.add(this.counters, TAKEN, 1) + 1;
    const awaited = Atomics.load(this.counters, TAKEN_AWAITED);
    if (awaited !== 0 && taken >= awaited) Atomics.notify(this.counters, TAKEN);
  }

  arrived(size: number, state: ArrivalState): void {
    this.size[0] = size;
    Atomics.store(this.counters, STATE, STATES.indexOf(state));
    // An atomic write after the size: the reader that sees the change sees the size.
    Atomics.add(this.counters, CHANGES, 1);
    if (Atomics.load(this.counters, WAITING_CHANGES) === 1) Atomics.notify(this.counters, CHANGES);
  }

  // The reading thread's side.

  batchesTaken(): number {
    return Atomics.load(this.counters, TAKEN);
  }

  /** Resolves once `count` batches have been taken. */
  async taken(count: number): Promise<void> {
    Atomics.store(this.counters, TAKEN_AWAITED, count);
    for (let seen = Atomics.load(this.counters, TAKEN); seen < count; seen = Atomics.load(this.counters, TAKEN)) {
      const wait = Atomics.waitAsync(this.counters, TAKEN, seen);
      if (wait.async) await wait.value;
    }
    Atomics.store(this.counters, TAKEN_AWAITED, 0);
  }

  arrivalChanges(): number {
    return Atomics.load(this.counters, CHANGES);
  }

  /** Resolves once the upload changed since `seen` (arrivalChanges()). */
  async arrivalChange(seen: number): Promise<void> {
    // A change made before the flag is set is seen by the wait itself, which then does not wait.
    Atomics.store(this.counters, WAITING_CHANGES, 1);
    const wait = Atomics.waitAsync(this.counters, CHANGES, seen);
    if (wait.async) await wait.value;
    Atomics.store(this.counters, WAITING_CHANGES, 0);
  }

  arrivedBytes(): number {
    return this.size[0]!;
  }

  arrivalState(): ArrivalState {
    return STATES[Atomics.load(this.counters, STATE)]!;
  }
}
