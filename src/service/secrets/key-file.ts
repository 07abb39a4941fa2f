import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";

/** The key as the file holds it (one line); undefined when there is no file. */
export function readKeyFile(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const key = readFileSync(path, "utf8").trim();
  if (key.length < 32) throw new Error(`the secret key file ${path} holds no key (at least 32 characters expected)`);
  return key;
}

/** Writes a new key file readable by its owner alone, durably; never over an existing one (two first starts race). */
export function createKeyFile(path: string, key: string): string {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readKeyFile(path)!;
    throw error;
  }
  try {
    writeSync(fd, `${key}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return key;
}

/** Moves the key file to `to` (0600), refusing to overwrite another key; the old file is removed last. */
export function moveKeyFile(from: string, to: string): void {
  const key = readKeyFile(from);
  if (key === undefined) throw new Error(`there is no secret key file at ${from}`);
  const there = readKeyFile(to);
  if (there !== undefined && there !== key) throw new Error(`${to} already holds a different key`);
  if (there === undefined) {
    const partial = `${to}.partial-${process.pid}`;
    createKeyFile(partial, key);
    renameSync(partial, to);
  }
  chmodSync(to, 0o600);
  rmSync(from);
}
