// Small, strict readers for JSON bodies and path parameters: each failure is one INVALID_PARAMS
// naming the field. Unknown fields are refused so typos do not pass silently.
import { apiError } from '../core/errors.js';

export type Body = Record<string, unknown>;

export function objectBody(body: unknown, allowed: readonly string[]): Body {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw apiError('INVALID_PARAMS', 'notObject');
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    const field = JSON.stringify(unknown[0]);
    throw allowed.length > 0
      ? apiError('INVALID_PARAMS', 'unknownField', { field, allowed: allowed.join(', ') })
      : apiError('INVALID_PARAMS', 'unexpectedField', { field });
  }
  return body as Body;
}

export function requiredString(body: Body, field: string, max = 200): string {
  const v = body[field];
  if (typeof v !== 'string' || v.trim().length === 0) throw apiError('INVALID_PARAMS', 'nonEmptyString', { name: field });
  if (v.length > max) throw apiError('INVALID_PARAMS', 'tooLong', { name: field, max });
  return v.trim();
}

export function optionalString(body: Body, field: string, max = 200): string | undefined {
  return body[field] === undefined ? undefined : requiredString(body, field, max);
}

export function optionalBoolean(body: Body, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw apiError('INVALID_PARAMS', 'boolean', { name: field });
  return v;
}

export function requiredInt(body: Body, field: string, min: number, max: number): number {
  const v = body[field];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw apiError('INVALID_PARAMS', 'integerFrom', { name: field, min, max });
  return v;
}

/** An integer; undefined when absent. */
export function optionalInt(body: Body, field: string, min: number, max: number): number | undefined {
  return body[field] === undefined ? undefined : requiredInt(body, field, min, max);
}

/** An integer or null; undefined when absent. */
export function optionalNullableInt(body: Body, field: string, min: number, max: number): number | null | undefined {
  if (body[field] === undefined) return undefined;
  if (body[field] === null) return null;
  return optionalInt(body, field, min, max);
}

export function oneOf<T extends string>(body: Body, field: string, values: readonly T[]): T {
  const v = body[field];
  if (typeof v !== 'string' || !values.includes(v as T)) throw apiError('INVALID_PARAMS', 'oneOf', { name: field, values: values.join(', ') });
  return v as T;
}

/** A numeric id in a path; anything else is simply not found. */
export function idParam(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) throw apiError('NOT_FOUND', 'id');
  return Number(value);
}
