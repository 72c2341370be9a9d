// Small, strict readers for JSON bodies and path parameters: each failure is one INVALID_PARAMS
// naming the field. Unknown fields are refused so typos do not pass silently.
import { invalidParams, notFound } from '../core/errors.js';

export type Body = Record<string, unknown>;

export function objectBody(body: unknown, allowed: readonly string[]): Body {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidParams('body must be a JSON object');
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    const expected = allowed.length > 0 ? `allowed: ${allowed.join(', ')}` : 'this request takes no body';
    throw invalidParams(`unknown field ${JSON.stringify(unknown[0])}; ${expected}`);
  }
  return body as Body;
}

export function requiredString(body: Body, field: string, max = 200): string {
  const v = body[field];
  if (typeof v !== 'string' || v.trim().length === 0) throw invalidParams(`${field} is required and must be a non-empty string`);
  if (v.length > max) throw invalidParams(`${field} must be at most ${max} characters`);
  return v.trim();
}

export function optionalString(body: Body, field: string, max = 200): string | undefined {
  return body[field] === undefined ? undefined : requiredString(body, field, max);
}

export function optionalBoolean(body: Body, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw invalidParams(`${field} must be true or false`);
  return v;
}

export function requiredInt(body: Body, field: string, min: number, max: number): number {
  const v = body[field];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw invalidParams(`${field} must be an integer from ${min} to ${max}`);
  return v;
}

/** An integer or null; undefined when absent. */
export function optionalNullableInt(body: Body, field: string, min: number, max: number): number | null | undefined {
  if (body[field] === undefined) return undefined;
  if (body[field] === null) return null;
  return requiredInt(body, field, min, max);
}

export function oneOf<T extends string>(body: Body, field: string, values: readonly T[]): T {
  const v = body[field];
  if (typeof v !== 'string' || !values.includes(v as T)) throw invalidParams(`${field} must be one of ${values.join(', ')}`);
  return v as T;
}

/** A numeric id in a path; anything else is simply not found. */
export function idParam(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) throw notFound();
  return Number(value);
}
