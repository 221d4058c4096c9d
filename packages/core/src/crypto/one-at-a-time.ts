/**
 * Runs the tasks given to it one after another, in the order given: each starts when the one before
 * has ended, whether that one succeeded or failed.
 */
export class OneAtATime {
  #last: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#last.then(task, task);
    this.#last = result.catch(() => undefined);
    return result;
  }
}
