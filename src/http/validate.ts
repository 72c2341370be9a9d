// The reader of JSON bodies (each declared once in ./bodies.ts) and of path parameters. A body is
// checked against its schema field by field, in the schema's order: the first fault is one
// INVALID_PARAMS naming the field. Unknown fields are refused so typos do not pass silently.
import type { Static, TObject } from 'typebox';
import { ApiError, apiError, type MessageName } from '../core/errors.js';
import { FIRST_DAY, isValidDay, LAST_DAY } from '../core/period.js';
import { OWN_CHECK, REFUSAL, type Refusal } from './bodies.js';

/** The JSON Schema keywords the bodies use (./bodies.ts), as TypeBox writes them. */
interface Schema {
  type?: 'string' | 'integer' | 'boolean' | 'array' | 'object' | 'null';
  const?: string;
  anyOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: 'day';
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  'x-verbatim'?: boolean;
  'x-blank-refused'?: boolean;
  [OWN_CHECK]?: boolean;
  [REFUSAL]?: Refusal;
}

const refused = (refusal: Refusal): ApiError =>
  (ApiError.of as (code: 'INVALID_PARAMS', message: MessageName<'INVALID_PARAMS'>, params?: Refusal['params']) => ApiError)('INVALID_PARAMS', refusal.message, refusal.params);

/** A request's JSON body checked against its schema; no body (or an empty one) is an empty object. */
export function readBody<S extends TObject>(schema: S, body: unknown): Static<S> {
  return fields(schema as unknown as Schema, body ?? {}) as Static<S>;
}

/**
 * A value checked against its schema, as the body holds it (texts trimmed unless verbatim).
 * `name` is the field's; `inherited` is the refusal of the list it is an item of.
 */
function checked(schema: Schema, value: unknown, name: string, inherited?: Refusal): unknown {
  if (schema[OWN_CHECK]) return value;
  const refusal = schema[REFUSAL] ?? inherited;
  const fail = (fallback: Refusal): ApiError => refused(refusal ?? fallback);
  const choices = schema.anyOf?.filter((s) => s.type !== 'null');
  if (choices) {
    if (value === null && choices.length < schema.anyOf!.length) return null;
    if (choices.every((s) => s.const !== undefined)) {
      if (!choices.some((s) => s.const === value)) throw fail({ message: 'oneOf', params: { name, values: choices.map((s) => s.const).join(', ') } });
      return value;
    }
    return checked(choices[0]!, value, name, refusal);
  }
  switch (schema.type) {
    case 'string':
      return text(schema, value, name, fail);
    case 'integer': {
      const { minimum: min, maximum: max } = schema;
      const inRange = typeof value === 'number' && Number.isInteger(value) && (min === undefined || value >= min) && (max === undefined || value <= max);
      if (!inRange) throw fail(min === undefined || max === undefined ? { message: 'integer', params: { name } } : { message: 'integerFrom', params: { name, min, max } });
      return value;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw fail({ message: 'boolean', params: { name } });
      return value;
    case 'array': {
      const { minItems = 0, maxItems = Infinity } = schema;
      if (!Array.isArray(value) || value.length < minItems || value.length > maxItems) throw fail({ message: 'notObject' });
      return value.map((item, i) => checked(schema.items!, item, `${name}[${i}]`, refusal));
    }
    case 'object':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail({ message: 'notObject' });
      return fields(schema, value);
    default:
      throw new Error(`bodies.ts declares a field ${name} of a kind readBody does not check`);
  }
}

function text(schema: Schema, value: unknown, name: string, fail: (fallback: Refusal) => ApiError): string {
  const max = schema.maxLength ?? Infinity;
  if (schema.format === 'day') {
    if (typeof value !== 'string' || !isValidDay(value)) throw fail({ message: 'day', params: { name, first: FIRST_DAY, last: LAST_DAY } });
    return value;
  }
  if (schema['x-verbatim']) {
    const blank = typeof value === 'string' && (value.length === 0 || (schema['x-blank-refused'] === true && value.trim() === ''));
    if (typeof value !== 'string' || blank || value.length > max) throw fail({ message: 'stringLength', params: { name, max } });
    return value;
  }
  if (typeof value !== 'string' || value.trim().length === 0) throw fail({ message: 'nonEmptyString', params: { name } });
  if (value.length > max) throw fail({ message: 'tooLong', params: { name, max } });
  return value.trim();
}

/** An object's fields checked in the schema's order; a field the schema lacks is refused. */
function fields(schema: Schema, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw apiError('INVALID_PARAMS', 'notObject');
  const given = value as Record<string, unknown>;
  const allowed = Object.keys(schema.properties ?? {});
  const unknown = Object.keys(given).find((key) => !allowed.includes(key));
  if (unknown !== undefined) {
    const field = JSON.stringify(unknown);
    throw allowed.length > 0
      ? apiError('INVALID_PARAMS', 'unknownField', { field, allowed: allowed.join(', ') })
      : apiError('INVALID_PARAMS', 'unexpectedField', { field });
  }
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (given[name] === undefined && !schema.required?.includes(name)) continue;
    out[name] = checked(field, given[name], name);
  }
  return out;
}

/** A numeric id in a path; anything else is simply not found. */
export function idParam(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) throw apiError('NOT_FOUND', 'id');
  return Number(value);
}
