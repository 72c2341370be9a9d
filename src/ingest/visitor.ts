// Cookieless visitor identity: visitorId = first 8 bytes of SHA-256(salt ‖ site ‖ ip ‖ ua), where the
// salt belongs to the event's site-local date. Salts are 16 random bytes per calendar date, deleted
// once that date has ended in every time zone, so no hash can be recomputed later.
import { hash } from 'node:crypto';
import { addDays } from '../core/localtime.js';
import { randomSalt } from '../core/ids.js';
import type { MaybePromise } from '../core/clock.js';

// The hash input is assembled in one reused buffer and hashed in one call: a Hash object per event
// with five update() calls cost twice as much on the collection hot path.
const SALT_BYTES = 16;
const scratch = Buffer.allocUnsafe(SALT_BYTES + 4096);

function hashInput(salt: Buffer, text: string): Buffer {
  if (salt.length === SALT_BYTES) {
    salt.copy(scratch);
    const written = scratch.write(text, SALT_BYTES);
    // write() stops before a character that does not fit (up to 4 bytes): with less room left than
    // that, the text may have been cut short, and is assembled whole instead.
    if (written + 4 <= scratch.length - SALT_BYTES) return scratch.subarray(0, SALT_BYTES + written);
  }
  return Buffer.concat([salt, Buffer.from(text)]);
}

export function visitorIdFor(salt: Buffer, sitePublicId: string, ip: string, ua: string): bigint {
  return hash('sha256', hashInput(salt, `${sitePublicId}\0${ip}\0${ua}`), 'buffer').readBigInt64BE(0);
}

/** Where salts come from: the MetaStore for live traffic, a throwaway map for one import call. */
export interface SaltSource {
  saltFor(day: string): Promise<Buffer>;
}

/** Salts of one import call: random per date, never stored, so an imported visitor never matches a live one. */
export class EphemeralSalts implements SaltSource {
  private readonly salts = new Map<string, Buffer>();
  async saltFor(day: string): Promise<Buffer> {
    let salt = this.salts.get(day);
    if (!salt) {
      salt = randomSalt();
      this.salts.set(day, salt);
    }
    return salt;
  }
}

/**
 * In-memory view of the salts in use, in front of a SaltSource: the hot path hashes with a cached
 * salt; the source is asked once per date.
 */
export class SaltBook {
  private readonly cache = new Map<string, Buffer>();
  private readonly pending = new Map<string, Promise<Buffer>>();

  /**
   * `sharedSessions`: the live sessions are shared with other processes, which may have opened a
   * session under a date's salt this process never used.
   */
  constructor(
    private readonly source: SaltSource,
    private readonly sharedSessions = false,
  ) {}

  saltFor(day: string): MaybePromise<Buffer> {
    const hit = this.cache.get(day);
    if (hit) return hit;
    let p = this.pending.get(day);
    if (!p) {
      p = this.source.saltFor(day).then((salt) => {
        this.cache.set(day, salt);
        this.pending.delete(day);
        return salt;
      });
      p.catch(() => this.pending.delete(day));
      this.pending.set(day, p);
    }
    return p;
  }

  private previousDay = { of: '', is: '' };

  /**
   * The previous date's salt, for sessions that cross local midnight: if it is in use here (only
   * this process's sessions can be under it), or, with shared sessions, from the source.
   */
  previousSalt(day: string): MaybePromise<Buffer | undefined> {
    if (this.previousDay.of !== day) this.previousDay = { of: day, is: addDays(day, -1) };
    return this.cache.get(this.previousDay.is) ?? (this.sharedSessions ? this.saltFor(this.previousDay.is) : undefined);
  }

  /** Forgets cached salts of dates before `day` (after the store deleted them). */
  forgetBefore(day: string): void {
    for (const d of this.cache.keys()) if (d < day) this.cache.delete(d);
  }
}

/**
 * The first date whose salt must be kept at `now`: a date has ended everywhere once it has ended in
 * UTC−12, and its salt is kept 30 minutes longer for sessions that cross that midnight.
 */
export function oldestLiveSaltDay(now: number): string {
  return new Date(now - (12 * 60 + 30) * 60_000).toISOString().slice(0, 10);
}
