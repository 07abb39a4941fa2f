#!/usr/bin/env bun
import { runCli } from "./cli/program";

await runCli(process.argv);
