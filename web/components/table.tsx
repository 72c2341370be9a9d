// A table of rows under a header of column names, or what stands in its place when there are no rows.
import type { ComponentChildren, VNode } from 'preact';

/**
 * A column's header: its name, or its name with `numeric` for right-aligned figures and `sort` for
 * the field a sortable table orders its rows by.
 */
export type Column = string | { label: string; numeric?: boolean; sort?: string };

/** How a sortable table's rows are ordered, and what a click on a sortable header asks for. */
export interface TableOrder {
  by: string;
  descending: boolean;
  onSort(by: string): void;
}

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
  /** With it, the columns that have a `sort` field are buttons, the current one marked with `aria-sort`. */
  order?: TableOrder | undefined;
}

function Header({ column, order }: { column: Column; order: TableOrder | undefined }) {
  const { label, numeric, sort } = typeof column === 'string' ? { label: column, numeric: false, sort: undefined } : column;
  const current = order !== undefined && sort !== undefined && order.by === sort;
  return (
    <th scope="col" class={numeric ? 'num' : undefined} aria-sort={current ? (order.descending ? 'descending' : 'ascending') : undefined}>
      {order && sort !== undefined ? (
        <button type="button" class="sort" onClick={() => order.onSort(sort)}>
          {label}
          <span class="sort-mark" aria-hidden="true">
            {current ? (order.descending ? ' ▾' : ' ▴') : ''}
          </span>
        </button>
      ) : (
        label
      )}
    </th>
  );
}

/** The bare table, for narrow panels whose cells never scroll. */
export function Table<T>({ columns, rows, row, empty, class: className, label, order }: TableProps<T>) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    <table class={className} aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <Header key={typeof column === 'string' ? column : column.label} column={column} order={order} />
          ))}
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
