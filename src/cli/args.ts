// Helpers for reading a command's parsed options, with usage errors naming the missing piece.
import type { Invocation } from './types.js';

/** A required string option (`--org ID`). */
export function required(inv: Invocation, name: string): string {
  const value = inv.values[name];
  if (typeof value !== 'string' || value === '') inv.usage(`missing --${name}`);
  return value;
}

/** An optional string option. */
export function optional(inv: Invocation, name: string): string | undefined {
  const value = inv.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A repeatable option (`--step a --step b`), possibly empty. */
export function many(inv: Invocation, name: string): string[] {
  const value = inv.values[name];
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}

export function flag(inv: Invocation, name: string): boolean {
  return inv.values[name] === true;
}

/** A whole number within bounds, from an option's text. */
export function integer(inv: Invocation, name: string, text: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(text)) inv.usage(`--${name} must be a whole number, got ${JSON.stringify(text)}`);
  const n = Number(text);
  if (n < min || n > max) inv.usage(`--${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** An id given as a positional argument (or option) that the API takes as a positive integer. */
export function numericId(inv: Invocation, label: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) inv.usage(`${label} must be a positive whole number, got ${JSON.stringify(text)}`);
  return Number(text);
}
