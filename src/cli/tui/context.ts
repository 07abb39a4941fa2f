import { createContext, useContext } from "react";
import type { UserRow } from "../../service/users/directory";
import type { ServiceContext } from "../../service/context";
import type { Probe } from "../../service/relay/channel-tests";

/** A question on the status line that takes the keyboard until it is answered. */
export type Prompt =
  | { kind: "confirm"; question: string; onYes: () => void }
  | {
      kind: "input";
      label: string;
      initial?: string;
      /** The initial text starts selected, as in a form field: the first key typed replaces it. */
      selected?: boolean;
      hint?: (value: string) => string;
      onSubmit: (value: string) => void;
    };

export type Tone = "ok" | "error" | "busy";

/** What every screen gets: the service context and acting user, its size, and the shared status line. */
export interface Tui {
  ctx: ServiceContext;
  /** Who acts: the root user in `tollgate tui`; every action goes through the same permission checks as the API. */
  actor: UserRow;
  probe: Probe;
  width: number;
  /** Lines the screen's body may use. */
  height: number;
  /** False while a prompt has the keyboard: the screen's own keys are off. */
  active: boolean;
  ask(prompt: Prompt): void;
  /**
   * Runs one action: "…" on the status line meanwhile, then the message it answers, or the service's
   * refusal in red. Answers whether it succeeded.
   */
  run(work: () => Promise<string>): Promise<boolean>;
}

export const TuiContext = createContext<Tui | null>(null);

export function useTui(): Tui {
  const tui = useContext(TuiContext);
  if (!tui) throw new Error("useTui outside the TUI");
  return tui;
}
