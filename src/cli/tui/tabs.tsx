import { t } from "@lingui/core/macro";
import { Box, Text } from "ink";

/** The top line: the product, the screens with their number keys (the current one highlighted), who acts. */
export function Tabs({ titles, current, who }: { titles: string[]; current: number; who: string }) {
  return (
    <Box>
      <Text bold color="cyan">
        Tollgate{" "}
      </Text>
      {titles.map((title, index) => (
        <Text key={title} inverse={index === current} bold={index === current}>
          {index === current ? `[${index + 1} ${title}]` : ` ${index + 1} ${title} `}
        </Text>
      ))}
      <Box flexGrow={1} justifyContent="flex-end">
        <Text dimColor wrap="truncate-start">
          {t`as ${who}`}
        </Text>
      </Box>
    </Box>
  );
}
