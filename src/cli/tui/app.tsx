import { t } from "@lingui/core/macro";
import { Box, useApp, useInput, useWindowSize } from "ink";
import { useCallback, useMemo, useState, type ReactNode } from "react";
import type { UserRow } from "../../service/users/directory";
import type { ServiceContext } from "../../service/context";
import type { Probe } from "../../service/relay/channel-tests";
import { ChannelsScreen, channelKeys } from "./channels";
import { TuiContext, type Prompt, type Tone, type Tui } from "./context";
import { errorText } from "./errors";
import { HelpBar, type KeyHelp } from "./help-bar";
import { LogsScreen, logKeys } from "./logs";
import { OverviewScreen, overviewKeys } from "./overview";
import { StatusLine } from "./status-line";
import { Tabs } from "./tabs";
import { UsersScreen, userKeys } from "./users";

interface Screen {
  title: () => string;
  keys: () => KeyHelp[];
  body: () => ReactNode;
}

const SCREENS: Screen[] = [
  { title: () => t`Overview`, keys: overviewKeys, body: () => <OverviewScreen /> },
  { title: () => t`Channels`, keys: channelKeys, body: () => <ChannelsScreen /> },
  { title: () => t`Users`, keys: userKeys, body: () => <UsersScreen /> },
  { title: () => t`Logs`, keys: logKeys, body: () => <LogsScreen /> },
];

const globalKeys = (): KeyHelp[] => [
  ["Tab", t`screens`],
  ["q", t`quit`],
];

const promptKeys = (prompt: Prompt): KeyHelp[] =>
  prompt.kind === "confirm"
    ? [
        ["y", t`yes`],
        ["n", t`no`],
      ]
    : [
        ["Enter", t`confirm`],
        ["Esc", t`cancel`],
      ];

export interface AppProps {
  ctx: ServiceContext;
  actor: UserRow;
  probe: Probe;
  /** The terminal's size; by default the real one (80×24 is the smallest it is laid out for). */
  size?: { columns: number; rows: number };
}

/** The whole TUI: screens 1–4 (or Tab / Shift+Tab), a status line, the help bar; q quits. */
export function App({ ctx, actor, probe, size }: AppProps) {
  const windowSize = useWindowSize();
  const { columns, rows } = size ?? windowSize;
  const { exit } = useApp();
  const [current, setCurrent] = useState(0);
  const [prompt, setPrompt] = useState<Prompt>();
  const [message, setMessage] = useState<{ text: string; tone: Tone }>();

  const run = useCallback(async (work: () => Promise<string>) => {
    setMessage({ text: t`Working…`, tone: "busy" });
    try {
      setMessage({ text: await work(), tone: "ok" });
      return true;
    } catch (error) {
      setMessage({ text: errorText(error), tone: "error" });
      return false;
    }
  }, []);

  useInput(
    (input, key) => {
      if (input === "q") exit();
      else if (key.tab) setCurrent((index) => (index + (key.shift ? SCREENS.length - 1 : 1)) % SCREENS.length);
      else if (/^[1-4]$/.test(input)) setCurrent(Number(input) - 1);
      else return;
      setMessage(undefined);
    },
    { isActive: !prompt },
  );

  const tui: Tui = useMemo(
    () => ({ ctx, actor, probe, width: columns, height: Math.max(rows - 3, 5), active: !prompt, ask: setPrompt, run }),
    [ctx, actor, probe, columns, rows, prompt, run],
  );
  const screen = SCREENS[current]!;
  return (
    <TuiContext.Provider value={tui}>
      <Box flexDirection="column" width={columns} height={rows}>
        <Tabs titles={SCREENS.map((s) => s.title())} current={current} who={actor.username} />
        <Box height={tui.height} flexDirection="column" overflow="hidden">
          {screen.body()}
        </Box>
        <StatusLine prompt={prompt} onPromptDone={() => setPrompt(undefined)} message={message} />
        <HelpBar keys={prompt ? promptKeys(prompt) : [...screen.keys(), ...globalKeys()]} />
      </Box>
    </TuiContext.Provider>
  );
}
