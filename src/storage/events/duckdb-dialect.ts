import { checkedDay, integerText, type Dialect } from '../../sql/dialect.js';

export const duckdbDialect: Dialect = {
  countDistinct: (expr) => `count(DISTINCT ${expr})`,
  countVisitorDays: (day, visitor) => `count(DISTINCT (${day}, ${visitor}))`,
  countIf: (cond) => `count(*) FILTER (WHERE ${cond})`,
  sumIf: (expr, cond) => `sum(${expr}) FILTER (WHERE ${cond})`,
  sumOfCounts: (column) => `CAST(sum(${column}) AS BIGINT)`,
  countOverAll: () => 'count(*) OVER ()',
  sumOverAll: (expr) => `sum(${expr}) OVER ()`,
  groupTotals: () => null,
  readFirst: () => null,
  argMaxIf: (expr, by, cond) => `arg_max(${expr}, ${by}) FILTER (WHERE ${cond})`,
  monthStart: (d) => `CAST(date_trunc('month', ${d}) AS DATE)`,
  bucketOf: (s, buckets) => `hash(${s}) % ${integerText(buckets)}`,
  dateLiteral: (day) => `DATE '${checkedDay(day)}'`,
  contains: (expr) => `contains(${expr}, ?)`,
  containsInsensitive: (expr) => `contains(lower(${expr}), lower(?))`,
  asRepeated: (expr) => expr,
  dayText: (d) => `strftime(${d}, '%Y-%m-%d')`,
  regexMatches: (expr) => `regexp_matches(${expr}, ?)`,
  regexExtract: (expr) => `regexp_extract(${expr}, ?, 1)`,
  regexExtractAll: (expr) => `regexp_extract_all(${expr}, ?, 1)`,
  unnest: (expr) => `unnest(${expr})`,
  listFilter: (list, variable, body) => `list_filter(${list}, lambda ${variable}: ${body})`,
  sessionLists: {
    // Pairs sorted per list (structs sort by their fields in order): an aggregate's own ORDER BY sorts every row of the input, several times slower.
    orderedListIf: (value, by, cond) => `list_transform(list_sort(coalesce(list({'o_by': ${by}, 'o_value': ${value}}) FILTER (WHERE ${cond}), [])), lambda o_: o_.o_value)`,
    listPositions: (list) => `range(1, len(${list}) + 1)`,
    listMap: (list, variable, body) => `list_transform(${list}, lambda ${variable}: ${body})`,
    listSlice: (list, from, length) => `list_slice(${list}, ${from}, (${from}) + (${length}) - 1)`,
    concatInOrder: (list, by) => `flatten(list_transform(list_sort(list({'o_by': ${by}, 'o_value': ${list}})), lambda o_: o_.o_value))`,
    listLength: (list) => `len(${list})`,
    listHas: (list) => `list_contains(${list}, ?)`,
    listBytes: (list) => `coalesce(list_sum(list_transform(${list}, lambda b_: strlen(b_))), 0)`,
  },
  // Journeys read raw events as sorted rows (window functions), which spill past the memory limit.
  journeysOverWindows: true,
  fewRowsClause: '',
  idsWhere: (cases) => `flatten([${cases.map((c) => `CASE WHEN ${c.when} THEN [CAST(${integerText(c.id)} AS BIGINT)] ELSE CAST([] AS BIGINT[]) END`).join(', ')}])`,
  jsonStringText: (expr) => `json_extract_string(${expr}, '$')`,
  keptElseGroupRows: (relation, columns, group, kept) =>
    `SELECT ${columns.join(', ')} FROM (SELECT *, max(${kept}) OVER (PARTITION BY ${group}) AS g_kept FROM ${relation} w) g WHERE ${kept} = 1 OR g_kept = 0`,
};
