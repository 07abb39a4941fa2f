import { initialBundle, loginInteractive } from "./console";
import { coldStart, selfThroughput } from "./foundation";
import { relayBench } from "./relay";
import { streamsBench, streamsOptions } from "./streams";
import { logsBench } from "./logs";
import { importBench } from "./import";
import { cliBench } from "./cli";
import { binaryBench } from "./binary";
import { multiInstanceBench } from "./multi-instance";
import { sensitiveWordsBench } from "./sensitive-words";

const fmt = (n: number, digits = 1) => n.toFixed(digits);

console.log("Tollgate benchmarks (2-core machine; server pinned to CPU 0, load generator to CPU 1)\n");

const start = await coldStart();
console.log(
  `serve cold start to first 200 on /api/status (from source, empty SQLite): ${fmt(start)} ms  [target <= 150 ms]`,
);

await binaryBench();

const self = await selfThroughput();
console.log(
  `GET /api/user/self with a session, keep-alive, 64 connections: ${fmt(self.requestsPerSecond, 0)} req/s, ` +
    `p50 ${fmt(self.p50Ms, 2)} ms, p99 ${fmt(self.p99Ms, 2)} ms, non-2xx ${self.non2xx}  [target >= 15000 req/s]`,
);

const bundle = await initialBundle();
console.log(
  `console initial download (gzip): JS ${fmt(bundle.jsBytes / 1024)} KB  [target <= 250 KB], ` +
    `CSS ${fmt(bundle.cssBytes / 1024)} KB  [target <= 40 KB]`,
);

const login = await loginInteractive();
console.log(
  `cold start of serve to an interactive sign-in form in Chromium: ${fmt(login.totalMs, 0)} ms ` +
    `(of which page load ${fmt(login.pageMs, 0)} ms)`,
);

await relayBench();

await multiInstanceBench();
// Open streams: N 500 and 2 000 by default; `bun run bench --full` runs the whole ladder (see bench/streams.ts).
await streamsBench(streamsOptions(process.argv.slice(2)));
const sensitive = sensitiveWordsBench();
console.log(
  `sensitive-word prompt check, ${sensitive.words} words, ${sensitive.promptChars}-character prompt: ` +
    `${fmt(sensitive.microsPerCall, 2)} µs per call  [target <= 5 µs]`,
);

await logsBench();

await importBench();

await cliBench();
