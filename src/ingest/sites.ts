// Site look-ups on the collection hot path, cached briefly; admin writes invalidate at once, in
// every process that shares the Counters' invalidations (Redis pub/sub with SVC_REDIS_URL). A
// process that misses an invalidation (Redis unreachable at the time) keeps an entry at most TTL_MS.
import type { MaybePromise } from '../core/clock.js';
import type { Invalidations } from '../storage/counters/invalidations.js';
import type { Site } from '../entities/sites.js';
import type { MetaStore } from '../storage/meta/types.js';

const TTL_MS = 5000;
const TOPIC = 'sites';

export class SiteDirectory {
  private readonly cache = new Map<string, { site: Site | undefined; at: number }>();
  // Bumped by every invalidation: a look-up that started before one must not cache its answer.
  private generation = 0;

  constructor(
    private readonly meta: MetaStore,
    private readonly invalidations: Invalidations,
  ) {
    invalidations.subscribe(TOPIC, (publicId) => this.forget(publicId));
  }

  get(publicId: string, now: number): MaybePromise<Site | undefined> {
    const hit = this.cache.get(publicId);
    if (hit && now - hit.at < TTL_MS) return hit.site;
    return this.load(publicId, now);
  }

  private async load(publicId: string, now: number): Promise<Site | undefined> {
    const generation = this.generation;
    const site = await this.meta.getSite(publicId);
    if (generation !== this.generation) return site;
    if (this.cache.size > 50_000) this.cache.clear(); // unknown ids from scanners must not grow it forever
    this.cache.set(publicId, { site, at: now });
    return site;
  }

  /** A site changed: every process's directory forgets it. */
  invalidate(publicId: string): void {
    this.invalidations.publish(TOPIC, publicId);
  }

  private forget(publicId: string): void {
    this.generation++;
    this.cache.delete(publicId);
  }
}
