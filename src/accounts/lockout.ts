// Sign-in lockout (docs/accounts.md): after 10 attempts for one email or from one client within 15
// minutes, attempts for that email or from that client are refused; the 10th failure locks them for
// 15 minutes. An attempt is counted before its password is checked (AccountStore.reserveAttempt,
// atomic on every engine), so attempts sent together cannot all pass a check made before any of them
// failed. A client is its clientGroup: an IPv4 address, an IPv6 /64.
import { apiError } from '../core/errors.js';
import { clientGroup } from '../ingest/ip.js';
import type { RateLimiter } from '../storage/counters/rate-limiter.js';
import { emailKey, type AttemptKey, type Reservation } from '../entities/accounts.js';
import type { AccountStore } from '../storage/meta/account-types.js';

export const LOCKOUT = { failures: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 } as const;
/** Sign-in attempts a client may make a minute, checked before anything else (the lockout's database included). */
export const SIGNIN_RATE_LIMIT = { count: 20, windowMs: 60_000 } as const;

export const lockedOut = () => apiError('RATE_LIMITED', 'lockedOut', {}, { 'retry-after': String(LOCKOUT.lockMs / 1000) });
const tooManyAttempts = () =>
  apiError('RATE_LIMITED', 'signIns', {}, { 'retry-after': String(SIGNIN_RATE_LIMIT.windowMs / 1000) });

/** What one sign-in attempt is counted against. */
export interface AttemptSubject {
  email: string;
  /** The client address (normalized). */
  address: string;
}

/** An attempt counted by `reserve`, whose password is yet to be checked. */
export interface ReservedAttempt extends Reservation {
  key: AttemptKey;
}

export class Lockout {
  constructor(
    private readonly store: AccountStore,
    private readonly rateLimiter: RateLimiter,
  ) {}

  /**
   * Counts a request against its client's sign-in rate limit, before anything else is looked at;
   * throws RATE_LIMITED past it.
   */
  async admit(address: string, now: number): Promise<void> {
    if (!(await this.rateLimiter.hit(clientGroup(address), now))) throw tooManyAttempts();
  }

  /**
   * Counts an attempt before its password is checked (or hashed). Throws RATE_LIMITED when its email
   * or client is locked or has had 10 attempts in the window.
   */
  async reserve(attempt: AttemptSubject, now: number): Promise<ReservedAttempt> {
    const key = { emailKey: emailKey(attempt.email), clientGroup: clientGroup(attempt.address) };
    const reservation = await this.store.reserveAttempt(key, now, now - LOCKOUT.windowMs, LOCKOUT.failures);
    if (!reservation) throw lockedOut();
    return { ...reservation, key };
  }

  /** The password was wrong: the attempt stays counted, and the 10th locks its email, its client, or both. */
  async fail(attempt: ReservedAttempt, now: number): Promise<void> {
    const lock: Partial<AttemptKey> = {
      ...(attempt.byEmail >= LOCKOUT.failures ? { emailKey: attempt.key.emailKey } : {}),
      ...(attempt.byClient >= LOCKOUT.failures ? { clientGroup: attempt.key.clientGroup } : {}),
    };
    if (Object.keys(lock).length > 0) await this.store.lock(lock, now + LOCKOUT.lockMs);
  }

  /**
   * The password was never checked (no room to hash it, or an error), or it made an account: the
   * attempt does not count.
   */
  release(attempt: ReservedAttempt): Promise<void> {
    return this.store.releaseAttempt(attempt.id);
  }

  /** A successful sign-in forgets the email's attempts, this one included (the client's for other emails stay counted). */
  succeed(attempt: ReservedAttempt): Promise<void> {
    return this.store.clearAttempts(attempt.key.emailKey);
  }

  /** Forgets expired locks and attempts older than the window. */
  async prune(now: number): Promise<void> {
    await this.store.deleteLocksBefore(now);
    await this.store.deleteAttemptsBefore(now - LOCKOUT.windowMs);
  }
}
