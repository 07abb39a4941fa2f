import { Box, Text } from "ink";

/** A key and what it does, for the help bar. */
export type KeyHelp = readonly [key: string, action: string];

/** The bottom line: the keys that work now. */
export function HelpBar({ keys }: { keys: KeyHelp[] }) {
  return (
    <Box>
      <Text wrap="truncate-end">
        {keys.map(([key, action], index) => (
          <Text key={key}>
            {index > 0 ? " " : ""}
            <Text inverse>{key}</Text>
            <Text dimColor>{` ${action}`}</Text>
          </Text>
        ))}
      </Text>
    </Box>
  );
}
