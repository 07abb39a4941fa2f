/** A closed stdout (`tollgate user list | head -1`) ends the process with its exit code so far, not an EPIPE error. */
export function exitQuietlyOnEpipe(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  });
}
