/** A 1×1 PNG: every drawing's image (a browser can show it). */
export const FAKE_PNG = new Uint8Array(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  ),
);

/** How a fake task goes, chosen by a word in its prompt: succeeds after 3 polls, fails after 2, or never ends. */
type Script = "succeed" | "fail" | "never";

interface FakeTask {
  id: string;
  action: string;
  prompt: string;
  script: Script;
  polls: number;
}

export interface FakeMidjourney {
  url: string;
  /** Every submission's path and body, in order. */
  submissions: { path: string; body: any }[];
  /** How many list-by-condition calls were answered. */
  fetches: number;
  stop(): Promise<void>;
}

const scriptOf = (prompt: string): Script =>
  prompt.includes("fail") ? "fail" : prompt.includes("never") ? "never" : "succeed";

/**
 * A loopback midjourney-proxy: checks mj-api-secret (401 otherwise), takes submissions at /mj/submit/... (and the
 * /fast|/turbo|/relax prefixes, and /mj/insight-face/swap) answering {code: 1, result: id}; a prompt with
 * "queue-full" gets code 23, "banned" code 24. Each /mj/task/list-by-condition call moves every task asked for
 * one step on its script: SUBMITTED → IN_PROGRESS 50 % → SUCCESS with an image at /images/<id>.png (or FAILURE).
 */
export function startFakeMidjourney(secret: string): FakeMidjourney {
  const tasks = new Map<string, FakeTask>();
  const submissions: { path: string; body: any }[] = [];
  let next = 1_700_000_000_000;
  const fake: FakeMidjourney = {
    url: "",
    submissions,
    fetches: 0,
    stop: () => server.stop(true),
  };
  const view = (t: FakeTask) => {
    const base = {
      id: t.id,
      action: t.action,
      prompt: t.prompt,
      promptEn: t.prompt,
      description: `/imagine ${t.prompt}`,
      submitTime: 1_700_000_000_000,
      properties: { finalPrompt: t.prompt },
      buttons: [],
    };
    if (t.polls === 0)
      return {
        ...base,
        status: "SUBMITTED",
        progress: "0%",
        imageUrl: "",
        failReason: "",
        startTime: 0,
        finishTime: 0,
      };
    const done = t.script === "succeed" ? t.polls >= 3 : t.script === "fail" ? t.polls >= 2 : false;
    if (!done)
      return {
        ...base,
        status: "IN_PROGRESS",
        progress: "50%",
        imageUrl: "",
        failReason: "",
        startTime: 1_700_000_001_000,
        finishTime: 0,
      };
    if (t.script === "fail") {
      return {
        ...base,
        status: "FAILURE",
        progress: "",
        imageUrl: "",
        failReason: "Banned prompt detected",
        startTime: 1_700_000_001_000,
        finishTime: 1_700_000_030_000,
      };
    }
    return {
      ...base,
      status: "SUCCESS",
      progress: "100%",
      imageUrl: `${fake.url}/images/${t.id}.png`,
      failReason: "",
      startTime: 1_700_000_001_000,
      finishTime: 1_700_000_090_000,
      buttons: [{ customId: `MJ::JOB::upsample::1::${t.id}`, label: "U1" }],
    };
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path.startsWith("/images/")) return new Response(FAKE_PNG, { headers: { "content-type": "image/png" } });
      if (request.headers.get("mj-api-secret") !== secret)
        return Response.json({ code: 401, description: "unauthorized" }, { status: 401 });
      const body: any = request.method === "POST" ? await request.json().catch(() => ({})) : {};
      if (path === "/mj/task/list-by-condition") {
        fake.fetches++;
        const found = (body.ids as string[]).map((id) => tasks.get(id)).filter((t) => t !== undefined);
        for (const t of found) t.polls++;
        return Response.json(found.map(view));
      }
      const seed = /^\/mj\/task\/([^/]+)\/image-seed$/.exec(path);
      if (seed) return Response.json({ code: 1, description: "success", result: `seed-of-${seed[1]}` });
      const submit = /^(?:\/(?:fast|turbo|relax))?\/mj\/(?:submit\/([a-z-]+)|insight-face\/swap)$/.exec(path);
      if (!submit) return Response.json({ code: 3, description: "not found" }, { status: 404 });
      submissions.push({ path, body });
      const prompt = String(body.prompt ?? "");
      if (prompt.includes("queue-full")) return Response.json({ code: 23, description: "队列已满，请稍后尝试" });
      if (prompt.includes("banned"))
        return Response.json({ code: 24, description: "可能包含敏感词", properties: { bannedWord: "banned" } });
      const id = String(next++);
      tasks.set(id, { id, action: (submit[1] ?? "swap").toUpperCase(), prompt, script: scriptOf(prompt), polls: 0 });
      return Response.json({ code: 1, description: "提交成功", result: id, properties: { discordInstanceId: "1" } });
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}
