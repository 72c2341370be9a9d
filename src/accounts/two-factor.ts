// Two-factor sign-in (docs/accounts.md): a TOTP secret set up from the Security page and confirmed by
// a first code, ten one-time recovery codes, and the check of a code at sign-in. A TOTP code is
// accepted once: its step is recorded as used in the same statement that checks it is later than the
// last one used, so two requests with one code cannot both pass. A recovery code is deleted as it is
// used, by one statement too.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { apiError } from '../core/errors.js';
import { sha256Hex } from '../core/ids.js';
import type { TwoFactorSetup, TwoFactorStatus, User } from '../core/management.js';
import type { AccountStore } from '../storage/meta/account-types.js';
import { base32Encode, looksLikeTotpCode, matchingStep, newTotpSecret, otpauthUri, qrSvg } from './totp.js';

export const RECOVERY_CODES = 10;
/** The issuer authenticator apps show next to the account. */
const ISSUER = 'svc';

/** A recovery code as typed: letters in any case, spaces and dashes ignored. */
const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** A recovery code: 50 random bits as 10 base32 characters, shown as `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

export class TwoFactor {
  constructor(
    private readonly store: AccountStore,
    private readonly clock: Clock,
  ) {}

  async status(userId: number): Promise<TwoFactorStatus> {
    const record = await this.store.twoFactorOf(userId);
    const enabled = record?.enabledAt !== undefined;
    return { enabled, recoveryCodesLeft: enabled ? record!.recoveryCodesLeft : 0 };
  }

  async enabled(userId: number): Promise<boolean> {
    return (await this.store.twoFactorOf(userId))?.enabledAt !== undefined;
  }

  /** A new secret awaiting its first code (a set-up started again replaces it); 409 while enabled. */
  async begin(user: User): Promise<TwoFactorSetup> {
    const secret = newTotpSecret();
    if (!(await this.store.beginTwoFactor(user.id, secret))) throw apiError('CONFLICT', 'twoFactorEnabled');
    const uri = otpauthUri(secret, user.email, ISSUER);
    return { secret, otpauthUri: uri, qrSvg: qrSvg(uri) };
  }

  /** Enables the pending secret when `code` is its current code; answers the ten recovery codes, shown this once. */
  async confirm(userId: number, code: string): Promise<string[]> {
    const record = await this.store.twoFactorOf(userId);
    if (record?.enabledAt !== undefined) throw apiError('CONFLICT', 'twoFactorEnabled');
    if (!record) throw apiError('CONFLICT', 'twoFactorNotPending');
    const step = looksLikeTotpCode(code) ? matchingStep(record.secret, code, this.clock.now()) : undefined;
    if (step === undefined || step <= record.lastStep) throw apiError('UNAUTHORIZED', 'wrongCode');
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    const hashes = codes.map((c) => sha256Hex(normaliseRecoveryCode(c)));
    if (!(await this.store.enableTwoFactor(userId, step, hashes, this.clock.now()))) throw apiError('CONFLICT', 'twoFactorNotPending');
    return codes;
  }

  /**
   * Whether `code` is a TOTP code of the user not used before, or one of its unused recovery codes;
   * either is used up by a right answer. False when two-factor sign-in is not enabled. A TOTP code
   * already used (by this sign-in a moment ago, or by a request at the same time) is no wrong guess:
   * it throws `codeUsed`, so that the caller's attempt is released rather than counted.
   */
  async verify(userId: number, code: string): Promise<boolean> {
    const record = await this.store.twoFactorOf(userId);
    if (record?.enabledAt === undefined) return false;
    const typed = code.trim();
    if (looksLikeTotpCode(typed)) {
      const step = matchingStep(record.secret, typed, this.clock.now());
      if (step === undefined) return false;
      if (step <= record.lastStep || !(await this.store.useTotpStep(userId, step))) throw apiError('UNAUTHORIZED', 'codeUsed');
      return true;
    }
    const recovery = normaliseRecoveryCode(typed);
    return recovery.length > 0 && recovery.length <= 64 && (await this.store.useRecoveryCode(userId, sha256Hex(recovery)));
  }

  /** Removes two-factor sign-in (the user's own, after a right code; or the operator's reset). */
  async remove(userId: number): Promise<boolean> {
    return this.store.deleteTwoFactor(userId);
  }
}
