// Amounts of money as svc keeps them: whole minor units (cents) and a currency code, never floats,
// so that sums and averages are exact to the cent (docs/api.md, "Revenue"). No Node API: pure functions.
import { CURRENCY_CODE } from './vocabulary.js';

/** An amount in minor units (1/100 of the currency's unit) and its currency code. */
export interface Money {
  minor: number;
  currency: string;
}

/** The largest amount taken, in major units: its minor units and their sums stay exact integers. */
export const MAX_AMOUNT_MAJOR = 999_999_999_999;

// Digits, then at most 2 decimals; a fixed pattern (no user input in it), linear on any text.
const DECIMAL = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/**
 * The minor units of an amount, read from its decimal text (a number is read as JavaScript writes
 * it: 19.99 is "19.99", 0.1 + 0.2 is "0.30000000000000004" and refused), or null when it is not a
 * finite amount ≥ 0 of at most 2 decimals up to MAX_AMOUNT_MAJOR.
 */
export function parseAmount(amount: unknown): number | null {
  let text: string;
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) return null;
    text = String(amount);
  } else if (typeof amount === 'string' && amount.length <= 16) text = amount;
  else return null;
  const m = DECIMAL.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** A currency code upper-cased, or null when it is not three letters. */
export function parseCurrency(currency: unknown): string | null {
  if (typeof currency !== 'string' || currency.length !== 3) return null;
  const code = currency.toUpperCase();
  return CURRENCY_CODE.test(code) ? code : null;
}

/** `{amount, currency}` as sent with an event, or null when either is not valid. */
export function parseRevenue(revenue: unknown): Money | null {
  if (typeof revenue !== 'object' || revenue === null || Array.isArray(revenue)) return null;
  const { amount, currency } = revenue as Record<string, unknown>;
  const minor = parseAmount(amount);
  const code = parseCurrency(currency);
  return minor === null || code === null ? null : { minor, currency: code };
}

/**
 * Minor units as a number of major units with at most 2 decimals: the double nearest the decimal,
 * which JSON writes as that decimal exactly (12345 → 123.45).
 */
export function majorUnits(minor: number): number {
  return minor / 100;
}
