import { Box, Text } from "ink";

export interface Column<T> {
  header: string;
  /** Width in terminal cells; a `grow` column takes what the others leave. */
  width?: number;
  grow?: boolean;
  right?: boolean;
  value: (row: T) => string | number;
  color?: (row: T) => string | undefined;
}

interface TableProps<T> {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  /** The highlighted row (also marked with ">" so it reads without colours), if any. */
  cursor?: number;
  /** Said in place of the rows when there are none. */
  empty?: string;
}

function Cell({
  width,
  grow,
  right,
  children,
  bold,
  color,
  inverse,
}: {
  width?: number;
  grow?: boolean;
  right?: boolean;
  children: string;
  bold?: boolean;
  color?: string;
  inverse?: boolean;
}) {
  return (
    <Box
      width={width}
      flexGrow={grow ? 1 : 0}
      flexShrink={grow ? 1 : 0}
      flexBasis={grow ? 0 : undefined}
      marginRight={1}
      justifyContent={right ? "flex-end" : "flex-start"}
    >
      <Text wrap="truncate-end" bold={bold} color={color} inverse={inverse}>
        {children}
      </Text>
    </Box>
  );
}

/** Rows under a bold header, one line each; long cells are cut with "…". */
export function Table<T>({ columns, rows, rowKey, cursor, empty }: TableProps<T>) {
  const marked = cursor !== undefined;
  return (
    <Box flexDirection="column">
      <Box>
        {marked && <Text>{"  "}</Text>}
        {columns.map((column) => (
          <Cell key={column.header} width={column.width} grow={column.grow} right={column.right} bold>
            {column.header}
          </Cell>
        ))}
      </Box>
      {rows.length === 0 && empty ? <Text dimColor>{`  ${empty}`}</Text> : null}
      {rows.map((row, index) => (
        <Box key={rowKey(row)}>
          {marked && <Text bold>{index === cursor ? "> " : "  "}</Text>}
          {columns.map((column) => (
            <Cell
              key={column.header}
              width={column.width}
              grow={column.grow}
              right={column.right}
              color={column.color?.(row)}
              inverse={index === cursor}
            >
              {String(column.value(row))}
            </Cell>
          ))}
        </Box>
      ))}
    </Box>
  );
}
