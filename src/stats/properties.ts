// Custom properties on event rows (docs/api.md, Custom properties). Events keep their props as the
// JSON text the ingest wrote (JSON.stringify of a flat object of strings, numbers and booleans), read
// here with RE2 patterns (linear time, in both engines): in that text an unescaped `"` only opens or
// closes a key or a string value, so `{` or `,` then a key's JSON text and `:` is found nowhere but at
// that key. A value is compared as its JSON text (a filter's value is turned into the texts that
// match it) and decoded only where it is shown, as a breakdown's key.
import { clientValue, type FilterOperator, NONE_KEY, OTHER_KEY, PROPERTY_PREFIX, propertyKey, type PropertyDimension } from '../core/vocabulary.js';
import type { Dialect } from '../sql/dialect.js';
import { sql, trusted, withParams, type Sql } from '../sql/sql.js';

/** A JSON string's text, quotes included. */
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
/** A value's JSON text: a string, or a number or boolean (up to the next `,` or the end). */
const VALUE = String.raw`(?:${STRING}|[^,}]*)`;
/** One `"key":value` pair of the props object, as group 1. */
const PAIR = String.raw`[{,](${STRING}:${VALUE})`;
/** Of a pair's text: its key's JSON text (group 1), and its value's (group 1 of the other). */
const PAIR_KEY = String.raw`^(${STRING}):`;
const PAIR_VALUE = String.raw`^${STRING}:(.*)$`;

/** The events whose props are the tracker's measurements, never custom properties. */
export const CARRIES_NO_PROPERTIES = `name = 'engage'`;

const RE2_SPECIAL = /[\\^$.|?*+()[\]{}]/g;

/** The props text of an event row ('' without props). */
const PROPS = 'coalesce(props, \'\')';

/**
 * The JSON text of a property's value on an event row, '' when the event lacks the key. The pattern
 * runs only on props holding the key's text and `:`, which every match holds: a substring test costs
 * a fraction of a pattern's match, and most events carry no such key.
 */
export function propertyToken(d: Dialect, dimension: PropertyDimension): Sql {
  const keyText = JSON.stringify(propertyKey(dimension));
  const pattern = `[{,]${keyText.replace(RE2_SPECIAL, '\\$&')}:(${VALUE})`;
  return sql`(CASE WHEN ${withParams(d.contains(PROPS), `${keyText}:`)} THEN ${withParams(d.regexExtract(PROPS), pattern)} ELSE '' END)`;
}

/**
 * The JSON texts a property value matches: a string's, and for a value that reads as a number or a
 * boolean, the bare text. A client's text spelling a reserved key (`[none]`) also matches the stored
 * string that spells the key itself (`(none)`), as `clientValue` stores the other dimensions' values.
 */
function tokensOf(value: string): string[] {
  const strings = [value, ...[NONE_KEY, OTHER_KEY].filter((reserved) => clientValue(reserved) === value)];
  const tokens = strings.map((s) => JSON.stringify(s));
  if (value !== '' && !value.startsWith('"') && /^[^,}]*$/.test(value)) tokens.push(value);
  return tokens;
}

/**
 * Whether an event row matches `prop.<key>` under an operator: `is` a value, the events carrying the
 * key with that value, or for `(none)` the events carrying no such key; `is_not`, every other event;
 * `contains`, the events whose value's text holds the text (case-insensitive). Each keeps only events
 * a property breakdown counts (never an `engage` one), so that the breakdown's rows count the events
 * these filters keep.
 */
export function propertyFilterPredicate(d: Dialect, dimension: PropertyDimension, operator: FilterOperator, value: string): Sql {
  const token = propertyToken(d, dimension);
  const counted = trusted(`NOT ${CARRIES_NO_PROPERTIES}`);
  if (operator === 'contains') {
    const text = decodeValue(d, token);
    return sql`(${counted} AND ${token} <> '' AND ${withParams(d.containsInsensitive(text.text), ...text.params, value)})`;
  }
  const matches = tokenMatches(token, value);
  return operator === 'is' ? sql`(${counted} AND ${matches})` : sql`(${counted} AND NOT (${matches}))`;
}

/** Whether a property's token (`propertyToken`) is one a value `is` matches. */
function tokenMatches(token: Sql, value: string): Sql {
  if (value === NONE_KEY) return sql`${token} = ''`;
  if (value === OTHER_KEY) return trusted('1 = 0');
  const tokens = tokensOf(value).map((t) => sql`${t}`);
  return sql`${token} IN (${joinTokens(tokens)})`;
}

function joinTokens(tokens: Sql[]): Sql {
  return tokens.reduce((all, t, i) => (i === 0 ? t : sql`${all}, ${t}`));
}

/**
 * The text a JSON string's text (quotes included) holds. Most texts hold no escape: the engine's
 * JSON decoding, several times the cost of the rest of a property's read on DuckDB, runs only on a
 * text holding a backslash (ClickHouse 18.16 evaluates both branches of the CASE; its decoding is
 * cheap there).
 */
function decodeString(d: Dialect, json: Sql): Sql {
  const decoded = withParams(d.jsonStringText(json.text), ...json.params);
  return sql`(CASE WHEN ${withParams(d.contains(json.text), ...json.params, '\\')} THEN ${decoded} ELSE substring(${json}, 2, length(${json}) - 2) END)`;
}

/**
 * A property value's text from its JSON text: a string's text (one spelling a reserved key stored
 * as `clientValue` stores it), else the bare JSON text of a number or boolean.
 */
export function decodeValue(d: Dialect, token: Sql): Sql {
  const reserved = [NONE_KEY, OTHER_KEY].map((key) => sql`WHEN ${token} = ${JSON.stringify(key)} THEN ${clientValue(key)} `);
  return sql`(CASE ${reserved[0]!}${reserved[1]!}WHEN substring(${token}, 1, 1) = '"' THEN ${decodeString(d, token)} ELSE ${token} END)`;
}

/**
 * Every property of an event row, one row each (in a select list): its `"key":value` text, whose
 * key's and value's JSON texts `pairKeyToken` and `pairValueToken` take apart.
 */
export function propertyPairs(d: Dialect): Sql {
  return withParams(d.unnest(d.regexExtractAll(PROPS)), PAIR);
}

export function pairKeyToken(d: Dialect, pair: string): Sql {
  return withParams(d.regexExtract(pair), PAIR_KEY);
}

export function pairValueToken(d: Dialect, pair: string): Sql {
  return withParams(d.regexExtract(pair), PAIR_VALUE);
}

/** The dimension `prop.<key>` of a key's JSON text. */
export function keyDimension(d: Dialect, keyToken: Sql): Sql {
  return sql`concat(${PROPERTY_PREFIX}, ${decodeString(d, keyToken)})`;
}
