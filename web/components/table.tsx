// A table of rows under a header of column names, or what stands in its place when there are no rows.
import type { ComponentChildren, VNode } from 'preact';

/** A column's header: its name, or its name with `numeric` for right-aligned figures. */
export type Column = string | { label: string; numeric: true };

interface TableProps<T> {
  columns: readonly Column[];
  rows: readonly T[];
  /** One `<tr>` (with its key) per row. */
  row(item: T): VNode;
  /** Shown instead of the table when `rows` is empty; without it, an empty table shows its header. */
  empty?: ComponentChildren;
  class?: string;
  /** The table's accessible name where no heading names it. */
  label?: string;
}

/** The bare table, for narrow panels whose cells never scroll. */
export function Table<T>({ columns, rows, row, empty, class: className, label }: TableProps<T>) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    <table class={className} aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) =>
            typeof column === 'string' ? (
              <th key={column} scope="col">
                {column}
              </th>
            ) : (
              <th key={column.label} scope="col" class="num">
                {column.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{rows.map(row)}</tbody>
    </table>
  );
}

/**
 * The table in a box that scrolls sideways on a narrow screen. With `region`, the box is a named,
 * focusable region, so that keyboard users can scroll it too.
 */
export function WideTable<T>({ region, ...table }: TableProps<T> & { region?: string }) {
  if (table.rows.length === 0 && table.empty !== undefined) return <>{table.empty}</>;
  return (
    <div class="table-wrap" {...(region ? { tabIndex: 0, role: 'region', 'aria-label': region } : {})}>
      <Table {...table} />
    </div>
  );
}
