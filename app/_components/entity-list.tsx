import Link from "next/link";
import type { ReactNode } from "react";

/** One column of an entity list: its header, and what each row shows in it. */
export interface EntityColumn<Row> {
  header: string;
  /** Right-aligned figures (counts, weights). */
  numeric?: boolean;
  cell: (row: Row) => ReactNode;
}

/**
 * The list page of a club's entities (athletes, teams, tracks): a header with
 * the page's one action, the explanation of an empty list, else a table whose
 * first column links to the entity's page.
 */
export function EntityList<Row extends { id: number }>(props: {
  title: string;
  action: { href: string; label: string } | null;
  empty: ReactNode;
  rows: Row[];
  /** The first column: the entity's name, linked to `${hrefBase}/${id}`. */
  name: { header: string; hrefBase: string; text: (row: Row) => string };
  columns: EntityColumn<Row>[];
}) {
  const { title, action, empty, rows, name, columns } = props;
  return (
    <>
      <div className="page-header">
        <h1>{title}</h1>
        {action ? (
          <Link className="button" href={action.href}>
            {action.label}
          </Link>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <div className="card empty">
          <p>{empty}</p>
        </div>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{name.header}</th>
              {columns.map((column) => (
                <th key={column.header} scope="col" className={column.numeric ? "num" : undefined}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>
                  <Link href={`${name.hrefBase}/${row.id}`}>{name.text(row)}</Link>
                </td>
                {columns.map((column) => (
                  <td key={column.header} className={column.numeric ? "num" : undefined}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
