/** The parts of the pivot (OpenAI chat completions plus the house's extension fields) this dialect reads and writes. */

export interface PivotToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type PivotContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export type PivotMessage =
  | { role: "system" | "user"; content: string | PivotContentPart[] }
  | { role: "assistant"; content: string | null; reasoning_content?: string; tool_calls?: PivotToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export interface PivotTool {
  type: "function";
  function: { name: string; description?: string; parameters?: unknown };
}

export type PivotToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } };

export interface PivotRequest {
  model: string;
  messages: PivotMessage[];
  stream?: boolean;
  stream_options?: { include_usage: boolean };
  tools?: PivotTool[];
  tool_choice?: PivotToolChoice;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string[];
  presence_penalty?: number;
  frequency_penalty?: number;
  seed?: number;
  /** Several candidates (Gemini's candidateCount). */
  n?: number;
  response_format?: { type: "json_object" } | { type: "json_schema"; json_schema: { name: string; schema: unknown } };
  thinking_budget?: number;
  reasoning_effort?: string;
}

export interface PivotUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cached_creation_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

export interface PivotReply {
  id?: string;
  model?: string;
  choices?: {
    index?: number;
    message?: { content?: unknown; reasoning_content?: string | null; tool_calls?: PivotToolCall[] | null };
    finish_reason?: string | null;
  }[];
  usage?: PivotUsage | null;
}

export interface PivotToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

export interface PivotChunk {
  id?: string;
  model?: string;
  choices?: {
    index?: number;
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      tool_calls?: PivotToolCallDelta[] | null;
    };
    finish_reason?: string | null;
  }[];
  usage?: PivotUsage | null;
  error?: { message?: string; type?: string; code?: unknown };
}
