// Server-side sessions: the cookie holds a random secret, the store holds only its SHA-256. A session
// ends 30 days after its last use, 90 days after sign-in however often it is used (a stolen cookie
// does not stay good forever by being used), at sign-out, when its user is deleted or changes password.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../core/ids.js';
import type { SessionRecord } from '../entities/accounts.js';
import type { AccountStore } from '../storage/meta/account-types.js';

export const SESSION_IDLE_MS = 30 * 24 * 3_600_000;
export const SESSION_LIFETIME_MS = 90 * 24 * 3_600_000;
/** Last use is written at most this often, so reads do not each write. */
const TOUCH_EVERY_MS = 60_000;
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface NewSession {
  /** The cookie's value. */
  secret: string;
  csrfToken: string;
}

export class Sessions {
  constructor(private readonly store: AccountStore) {}

  /** A new session of the user; `singleSignOn` when single sign-on made it. */
  async create(userId: number, now: number, singleSignOn = false): Promise<NewSession> {
    const secret = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    await this.store.createSession({ id: sha256Hex(secret), userId, csrfToken, singleSignOn }, now);
    return { secret, csrfToken };
  }

  /** The live session of a cookie value, its last use moved to `now`; an idle or too old one is deleted. */
  async resume(secret: string | undefined, now: number): Promise<SessionRecord | undefined> {
    if (secret === undefined || !SECRET_PATTERN.test(secret)) return undefined;
    const session = await this.store.getSession(sha256Hex(secret));
    if (!session) return undefined;
    if (now - session.lastUsedAt >= SESSION_IDLE_MS || now - session.createdAt >= SESSION_LIFETIME_MS) {
      await this.store.deleteSession(session.id);
      return undefined;
    }
    if (now - session.lastUsedAt >= TOUCH_EVERY_MS) await this.store.touchSession(session.id, now);
    return session;
  }

  end(session: SessionRecord): Promise<void> {
    return this.store.deleteSession(session.id);
  }

  /** Deletes the sessions idle for 30 days or created 90 days ago (their rows; resume already refuses them). */
  prune(now: number): Promise<number> {
    return this.store.deleteExpiredSessions({ lastUsedBefore: now - SESSION_IDLE_MS, createdBefore: now - SESSION_LIFETIME_MS });
  }
}
