// Long work that makes garbage faster than V8 collects its old generation (an import's rows and
// their texts) lets the heap grow to several times what is live before V8 collects it: a
// 1 000 000-line import's enrichment reached 230 MB of heap over 60 MB live. The bound collects
// garbage itself once the used heap has grown by a set amount since the last collection.
import { getHeapStatistics } from 'node:v8';

/** A full garbage collection where the process runs with `--expose-gc` (as `npm start` does); else nothing. */
const collectGarbage: () => void = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

const usedHeapBytes = () => getHeapStatistics().used_heap_size;

export class HeapBound {
  private usedAfterCollection: number;

  /**
   * `growthBytes`: how far the used heap may grow past what the last collection left. A collection
   * stops the event loop for 20 - 40 ms (60 MB live), so the growth sets how often that happens.
   */
  constructor(
    private readonly growthBytes: number,
    private readonly collect: () => void = collectGarbage,
    private readonly usedHeap: () => number = usedHeapBytes,
  ) {
    this.usedAfterCollection = usedHeap();
  }

  /**
   * Collects garbage if the used heap has grown past the bound; cheap otherwise (one read of V8's
   * statistics). A heap found lower than the last collection left (V8 collected it meanwhile)
   * counts the growth from there.
   */
  check(): void {
    const used = this.usedHeap();
    if (used > this.usedAfterCollection + this.growthBytes) this.collectNow();
    else if (used < this.usedAfterCollection) this.usedAfterCollection = used;
  }

  /** Counts the growth from the heap as it is now (long work starting: what is there is not its own). */
  restart(): void {
    this.usedAfterCollection = this.usedHeap();
  }

  /** Collects garbage now, and counts the growth from what it leaves. */
  collectNow(): void {
    this.collect();
    this.usedAfterCollection = this.usedHeap();
  }
}
