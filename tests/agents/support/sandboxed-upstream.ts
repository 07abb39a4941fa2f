import { afterAll, beforeAll } from "bun:test";
import type { FakeUpstream } from "../../support/fake-upstream";
import { type CliSandbox, makeSandbox } from "./run-cli";

/** A fresh sandbox and a fake upstream (started knowing the sandbox) for the tests of a describe block. */
export function useSandboxedUpstream(start: (sandbox: CliSandbox) => FakeUpstream) {
  const context = {} as { upstream: FakeUpstream; sandbox: CliSandbox };
  beforeAll(() => {
    context.sandbox = makeSandbox();
    context.upstream = start(context.sandbox);
  });
  afterAll(async () => {
    await context.upstream.stop();
    context.sandbox.remove();
  });
  return context;
}
