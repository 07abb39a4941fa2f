/** The parts of the pivot (OpenAI chat completions plus the gateway's extension fields) this dialect reads and writes. */

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null | Record<string, unknown>[];
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  reasoning_content?: string;
  refusal?: string | null;
}

export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters?: unknown; strict?: boolean };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  [parameter: string]: unknown;
}

export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cached_creation_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

export interface ChatCompletion {
  id?: string;
  model?: string;
  created?: number;
  choices: {
    message: {
      content?: string | null;
      reasoning_content?: string | null;
      refusal?: string | null;
      tool_calls?: ChatToolCall[] | null;
    };
    finish_reason?: string | null;
  }[];
  usage?: ChatUsage | null;
}

export interface ChatToolCallDelta {
  index: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

export interface ChatChunk {
  id?: string;
  model?: string;
  choices?: {
    index?: number;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      refusal?: string | null;
      tool_calls?: ChatToolCallDelta[] | null;
    };
    finish_reason?: string | null;
  }[];
  usage?: ChatUsage | null;
  error?: { message?: string; code?: string | number | null; type?: string };
}
