// Sign-in lockout (docs/accounts.md): after 10 failed attempts for one email or from one client address
// within 15 minutes, attempts for that email or from that address are refused for 15 minutes.
import { ApiError } from '../core/errors.js';
import { emailKey, type KyselyAccountStore } from '../storage/meta/account-store.js';

export const LOCKOUT = { failures: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 } as const;

export const lockedOut = () => new ApiError('RATE_LIMITED', 'Too many failed attempts. Try again in 15 minutes.', { 'retry-after': String(LOCKOUT.lockMs / 1000) });

/** What one sign-in attempt is counted against. */
export interface AttemptSubject {
  email: string;
  /** The client address (normalized). */
  address: string;
}

const subjects = (attempt: AttemptSubject) => [`email:${emailKey(attempt.email)}`, `address:${attempt.address}`];

export class Lockout {
  constructor(private readonly store: KyselyAccountStore) {}

  /** Throws RATE_LIMITED while the email or the address is locked. */
  async check(attempt: AttemptSubject, now: number): Promise<void> {
    if (await this.store.isLocked(subjects(attempt), now)) throw lockedOut();
  }

  /** Counts a failure; the 10th within the window locks its email, its address, or both. */
  async fail(attempt: AttemptSubject, now: number): Promise<void> {
    const key = { emailKey: emailKey(attempt.email), address: attempt.address };
    const counts = await this.store.recordFailure(key, now, now - LOCKOUT.windowMs);
    const [emailSubject, addressSubject] = subjects(attempt) as [string, string];
    const locked = [
      ...(counts.byEmail >= LOCKOUT.failures ? [emailSubject] : []),
      ...(counts.byAddress >= LOCKOUT.failures ? [addressSubject] : []),
    ];
    if (locked.length > 0) await this.store.lock(locked, now + LOCKOUT.lockMs);
  }

  /** A successful sign-in forgets the email's earlier failures (the address's stay counted). */
  succeed(attempt: AttemptSubject): Promise<void> {
    return this.store.clearFailures(emailKey(attempt.email));
  }
}
