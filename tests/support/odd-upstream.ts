/** A loopback upstream answering every call with `reply`, for replies the fakes never give. */
export function oddUpstream(reply: (url: URL) => Response) {
  const calls: string[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (request) => (calls.push(request.url), reply(new URL(request.url))),
  });
  return { url: server.url.origin, calls, [Symbol.dispose]: () => server.stop(true) };
}
