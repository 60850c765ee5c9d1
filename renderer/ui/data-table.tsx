// A table of rows with an actions column: a header cell per column (sortable ones sort on a click
// anywhere in the cell, and say which way with aria-sort), then the actions column, whose header
// is for screen readers only.
import type { ReactNode } from 'react';
import { ChevronDown, ChevronUp } from 'lucide-react';

export interface DataColumn<K extends string> {
  key: K;
  label: string;
  className: string;
  sortable?: boolean;
}

export interface DataSort<K extends string> {
  key: K;
  ascending: boolean;
}

export function DataTable<K extends string>({
  label,
  className,
  columns,
  sort,
  onSort,
  busy,
  children,
}: {
  label: string;
  className: string;
  columns: DataColumn<K>[];
  sort?: DataSort<K>;
  onSort?: (key: K) => void;
  busy?: boolean;
  /** The body's rows; each ends with a `col-actions` cell. */
  children: ReactNode;
}) {
  return (
    <table aria-label={label} aria-busy={busy} className={className}>
      <thead>
        <tr>
          {columns.map((column) =>
            column.sortable ? (
              <SortHeader key={column.key} column={column} sort={sort} onSort={onSort} />
            ) : (
              <th key={column.key} className={column.className}>
                {column.label}
              </th>
            ),
          )}
          <th className="col-actions">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

// The whole header cell sorts (its button fills it, and a click beside the text reaches the cell).
function SortHeader<K extends string>({
  column,
  sort,
  onSort,
}: {
  column: DataColumn<K>;
  sort?: DataSort<K>;
  onSort?: (key: K) => void;
}) {
  const sorted = sort?.key === column.key;
  return (
    <th
      className={`sortable ${column.className}`}
      aria-sort={sorted ? (sort.ascending ? 'ascending' : 'descending') : 'none'}
      onClick={() => onSort?.(column.key)}
    >
      <button>
        {column.label}
        {sorted &&
          (sort.ascending ? (
            <ChevronUp size={12} aria-hidden="true" />
          ) : (
            <ChevronDown size={12} aria-hidden="true" />
          ))}
      </button>
    </th>
  );
}
