/** Runs async jobs one at a time, in order: what the balance book uses to keep DB reads and flushes apart. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(job, job);
    this.tail = result.catch(() => {});
    return result;
  }
}
