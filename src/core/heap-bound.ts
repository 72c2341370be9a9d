// Long work that makes garbage faster than V8 collects its old generation (an import's rows and
// their texts) lets the heap grow to several times what is live before V8 collects it: a
// 1 000 000-line import's enrichment reached 230 MB of heap over 60 MB live. The bound collects
// garbage itself once the used heap has grown by a set amount since the last collection.
import { getHeapStatistics } from 'node:v8';

/** A full garbage collection where the process runs with `--expose-gc` (as `npm start` does); else nothing. */
const collectGarbage: () => void = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

/** V8's heap as it stands: what is used, and what V8 holds for it (used, garbage and free pages). */
export interface HeapSize {
  used: number;
  held: number;
}

const heapSize = (): HeapSize => {
  const stats = getHeapStatistics();
  return { used: stats.used_heap_size, held: stats.total_heap_size };
};

export class HeapBound {
  private usedAfterCollection: number;
  /**
   * What V8 held after the last collection, and how much that collection gave back: an idle check
   * collects again only once V8 held more, or while the last collection gave back more than the bound.
   */
  private heldAfterCollection: number;
  private heldGivenBack = 0;

  /**
   * `growthBytes`: how far the used heap may grow past what the last collection left. A collection
   * stops the event loop for 20 - 40 ms (60 MB live), so the growth sets how often that happens.
   */
  constructor(
    private readonly growthBytes: number,
    private readonly collect: () => void = collectGarbage,
    private readonly heap: () => HeapSize = heapSize,
  ) {
    ({ used: this.usedAfterCollection, held: this.heldAfterCollection } = heap());
  }

  /**
   * Collects garbage if the used heap has grown past the bound; cheap otherwise (one read of V8's
   * statistics). A heap found lower than the last collection left (V8 collected it meanwhile)
   * counts the growth from there.
   */
  check(): void {
    const { used } = this.heap();
    if (used > this.usedAfterCollection + this.growthBytes) this.collectNow();
    else if (used < this.usedAfterCollection) this.usedAfterCollection = used;
  }

  /**
   * check(), and on an idle process also: collects when V8 holds more than the bound past what is
   * used (pages that work grew and garbage V8 has not swept), each time it grew to that and again
   * while a collection gives back more than the bound. V8 gives pages back only after a full
   * collection, which an idle process that allocates little does not run: after `svc demo` it held
   * 60 - 130 MB for 29 MB used, and the first collection gave back only part.
   */
  checkIdle(): void {
    const { used, held } = this.heap();
    const heldTooMuch = held > used + this.growthBytes && (held > this.heldAfterCollection || this.heldGivenBack > this.growthBytes);
    if (used > this.usedAfterCollection + this.growthBytes || heldTooMuch) this.collectNow();
    else if (used < this.usedAfterCollection) this.usedAfterCollection = used;
  }

  /** Counts the growth from the heap as it is now (long work starting: what is there is not its own). */
  restart(): void {
    this.usedAfterCollection = this.heap().used;
  }

  /** Collects garbage if the used heap has grown by more than `bytes` since the last collection or restart. */
  collectIfGrown(bytes: number): void {
    if (this.heap().used > this.usedAfterCollection + bytes) this.collectNow();
  }

  /** Collects garbage now, and counts the growth from what it leaves. */
  collectNow(): void {
    const heldBefore = this.heap().held;
    this.collect();
    ({ used: this.usedAfterCollection, held: this.heldAfterCollection } = this.heap());
    this.heldGivenBack = heldBefore - this.heldAfterCollection;
  }
}
