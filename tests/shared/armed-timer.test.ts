import { expect, test } from "bun:test";
import { ArmedTimer } from "../../src/shared/armed-timer";
import { waitFor } from "../support/wait-for";

test("arming an armed timer changes nothing: it fires once, at the first arming's time", async () => {
  let fired = 0;
  const timer = new ArmedTimer(() => fired++);
  timer.arm(10);
  timer.arm(0);
  timer.arm(10);
  await waitFor(async () => fired > 0);
  await Bun.sleep(50);
  expect(fired).toBe(1);
  timer.arm(-5); // a wait already past fires at the next turn
  await waitFor(async () => fired > 1);
  expect(fired).toBe(2);
});

test("a stopped timer does not fire, and arming it again does nothing", async () => {
  let fired = 0;
  const timer = new ArmedTimer(() => fired++);
  timer.arm(10);
  timer.stop();
  timer.arm(0);
  await Bun.sleep(50);
  expect(fired).toBe(0);
});

test("an armed timer does not keep the process alive", async () => {
  const script = `import { ArmedTimer } from "${import.meta.dir}/../../src/shared/armed-timer";
new ArmedTimer(() => console.log("fired")).arm(60_000);`;
  const proc = Bun.spawn(["bun", "-e", script], { stdout: "pipe" });
  const exited = await Promise.race([proc.exited, Bun.sleep(20_000).then(() => "stalled")]);
  expect(exited).toBe(0);
  expect(await new Response(proc.stdout).text()).toBe("");
});
