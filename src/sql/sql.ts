// SQL fragments that carry their parameters. Interpolating a value into `sql` makes it a `?`
// parameter; only `Sql` fragments (from `trusted`, i.e. constants and Dialect output) are spliced as
// text. So no user input can ever become SQL text. This folder imports nothing of the service: the
// stores (src/storage) and the read side (src/stats) both speak it.

/** A value bound to a `?` parameter. */
export type SqlValue = string | number | bigint | boolean | null;

export class Sql {
  constructor(
    readonly text: string,
    readonly params: readonly SqlValue[],
  ) {}
}

export function sql(strings: TemplateStringsArray, ...values: ReadonlyArray<Sql | SqlValue>): Sql {
  let text = strings[0]!;
  const params: SqlValue[] = [];
  values.forEach((v, i) => {
    if (v instanceof Sql) {
      text += v.text;
      params.push(...v.params);
    } else {
      text += '?';
      params.push(v);
    }
    text += strings[i + 1]!;
  });
  return new Sql(text, params);
}

/** Text we wrote ourselves (column names, constants, Dialect output): never user input. */
export function trusted(text: string): Sql {
  return new Sql(text, []);
}

/** A trusted fragment with a parameter for each placeholder the Dialect put in it. */
export function withParams(text: string, ...params: SqlValue[]): Sql {
  return new Sql(text, params);
}

export function joinSql(parts: readonly Sql[], separator: string): Sql {
  return new Sql(
    parts.map((p) => p.text).join(separator),
    parts.flatMap((p) => p.params),
  );
}
