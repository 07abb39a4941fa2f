/** How a fake song goes, by a word in its prompt: done after 2 polls, failed after 1, or never done. */
type Script = "succeed" | "fail" | "never";

interface FakeSong {
  id: string;
  action: string;
  script: Script;
  polls: number;
}

export interface FakeSuno {
  url: string;
  submissions: { path: string; body: any }[];
  stop(): Promise<void>;
}

/**
 * A loopback Suno API: bearer key (401 otherwise); POST /suno/submit/{music,lyrics} answers
 * {code: "success", data: <task id>} (a prompt with "busy" gets 429); POST /suno/fetch {ids, action} answers
 * {code: "success", data: [tasks]}, each call moving each task one step: IN_PROGRESS, then SUCCESS with an
 * audio_url (or FAILURE).
 */
export function startFakeSuno(key: string): FakeSuno {
  const songs = new Map<string, FakeSong>();
  const submissions: { path: string; body: any }[] = [];
  let next = 1;
  const fake: FakeSuno = { url: "", submissions, stop: () => server.stop(true) };
  const view = (s: FakeSong) => {
    const done = s.script === "succeed" ? s.polls >= 2 : s.script === "fail" ? s.polls >= 1 : false;
    const base = { task_id: s.id, action: s.action, submit_time: 1_700_000_000, start_time: 1_700_000_001 };
    if (!done) return { ...base, status: "IN_PROGRESS", progress: "40%", fail_reason: "", finish_time: 0, data: [] };
    if (s.script === "fail") {
      return {
        ...base,
        status: "FAILURE",
        progress: "100%",
        fail_reason: "song generation failed",
        finish_time: 1_700_000_020,
        data: [],
      };
    }
    const clip = { id: `clip-${s.id}`, audio_url: `${fake.url}/audio/${s.id}.mp3`, title: "fake song" };
    return { ...base, status: "SUCCESS", progress: "100%", fail_reason: "", finish_time: 1_700_000_080, data: [clip] };
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      if (request.headers.get("authorization") !== `Bearer ${key}`) {
        return Response.json({ code: "unauthorized", message: "invalid key" }, { status: 401 });
      }
      const path = new URL(request.url).pathname;
      const body: any = await request.json().catch(() => ({}));
      if (path === "/suno/fetch") {
        const found = (body.ids as string[]).map((id) => songs.get(id)).filter((s) => s !== undefined);
        for (const s of found) s.polls++;
        return Response.json({ code: "success", message: "", data: found.map(view) });
      }
      const submit = /^\/suno\/submit\/(music|lyrics)$/.exec(path);
      if (!submit) return Response.json({ code: "not_found", message: "not found" }, { status: 404 });
      submissions.push({ path, body });
      const prompt = String(body.prompt ?? body.gpt_description_prompt ?? "");
      if (prompt.includes("busy"))
        return Response.json({ code: "busy", message: "too many requests" }, { status: 429 });
      const id = `song-${next++}`;
      const script: Script = prompt.includes("fail") ? "fail" : prompt.includes("never") ? "never" : "succeed";
      songs.set(id, { id, action: submit[1]!.toUpperCase(), script, polls: 0 });
      return Response.json({ code: "success", message: "", data: id });
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}
