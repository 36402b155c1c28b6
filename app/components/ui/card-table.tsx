import type { ComponentProps, ReactNode } from "react";
import { cn } from "~/lib/utils";

/**
 * A table at md and wider, labelled cards below (as on the billing page): the table and its
 * body become blocks, the head is visually hidden (screen readers still announce it, so each cell's
 * visible label is hidden from them), each row is a card and each cell shows its column's label, so
 * nothing scrolls sideways at 390 px. Desktop keeps the plain table.
 */
interface CardTableColumn {
  label: ReactNode;
  className?: string;
}

export function CardTable({
  caption,
  captionClassName = "sr-only",
  columns,
  children,
  className,
  headClassName = "bg-muted/50 text-muted-foreground",
}: {
  caption: ReactNode;
  captionClassName?: string;
  columns: CardTableColumn[];
  children: ReactNode;
  className?: string;
  headClassName?: string;
}) {
  return (
    <table className={cn("block w-full text-left text-sm md:table", className)}>
      <caption className={cn("block md:table-caption", captionClassName)}>{caption}</caption>
      <thead className={cn("sr-only md:not-sr-only md:table-header-group", headClassName)}>
        <tr>
          {columns.map((column, index) => (
            <th key={index} scope="col" className={cn("px-3 py-2 font-medium", column.className)}>
              {column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="block md:table-row-group">{children}</tbody>
    </table>
  );
}

/** One row: a card of label/value lines below md, a table row from md. */
export function CardRow({ className, ...props }: ComponentProps<"tr">) {
  return (
    <tr
      className={cn(
        "flex flex-col gap-1 border-t px-3 py-3 align-top first:border-t-0 md:table-row md:p-0 md:first:border-t",
        className,
      )}
      {...props}
    />
  );
}

const CELL = "grid grid-cols-[7rem_minmax(0,1fr)] gap-2 md:table-cell md:px-3 md:py-2";

/** One cell with its column's label, shown only while the row is a card. */
export function CardCell({
  label,
  rowHeader = false,
  className,
  children,
}: {
  label: ReactNode;
  rowHeader?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const content = (
    <>
      <span aria-hidden="true" className="font-sans text-sm font-normal text-muted-foreground md:hidden">
        {label}
      </span>
      <span className="min-w-0 [overflow-wrap:anywhere]">{children}</span>
    </>
  );
  return rowHeader ? (
    <th scope="row" className={cn(CELL, "font-normal", className)}>
      {content}
    </th>
  ) : (
    <td className={cn(CELL, className)}>{content}</td>
  );
}
