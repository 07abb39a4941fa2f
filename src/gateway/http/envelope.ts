/** The management API's reply shape: {success, message, data}. */
export const ok = <T>(data?: T, message = "") => ({ success: true as const, message, data: data ?? null });

export const failure = (message: string) => ({ success: false as const, message });

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}
