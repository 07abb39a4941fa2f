/** A log entry as GET /api/log/ and /api/log/self return it (spec §3 'Log entry'); `other` is JSON text. */
export interface LogView {
  id: number;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  token_id: number;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: boolean;
  channel: number;
  channel_name: string;
  group: string;
  ip: string;
  request_id: string;
  other: string;
}
