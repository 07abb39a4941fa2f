import { t } from "@lingui/core/macro";
import { Box, Text } from "ink";
import type { PagedList } from "./paged-list";

/** The line under a list: the filter in force and `summary` (page and count), or why the list could not be read. */
export function ListFooter({ list, filter, summary }: { list: PagedList<unknown>; filter: string; summary: string }) {
  return (
    <Box>
      <Box flexGrow={1} marginRight={1}>
        <Text wrap="truncate-end" color={list.error ? "red" : undefined} dimColor={!list.error}>
          {list.error ?? (filter ? t`Filter: ${filter}` : t`No filter (/ to set one)`)}
        </Text>
      </Box>
      <Text dimColor>{summary}</Text>
    </Box>
  );
}
