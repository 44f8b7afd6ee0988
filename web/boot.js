// @ts-check
/**
 * Starts the search worker as the very first thing the page does, before the lab's modules are
 * fetched and laid out: Pyodide takes seconds to load, and every millisecond it starts sooner is
 * one the user does not wait. The worker's first messages are kept until the engine
 * (engine.js) adopts it.
 *
 * Loaded by index.html as its own module script ahead of main.js; main.js imports it too, and
 * gets the same (already started) worker.
 *
 * @module boot
 */

/** @type {MessageEvent[]} */
const early = [];

/** The worker, started at once; its messages are held until `adoptWorker` takes them. */
export const earlyWorker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
earlyWorker.onmessage = (e) => early.push(e);

/**
 * Hand the early worker's held messages to its new owner (once), then leave the worker to it.
 * @returns {{worker: Worker, held: MessageEvent[]}}
 */
export function adoptWorker() {
  earlyWorker.onmessage = null;
  return { worker: earlyWorker, held: early.splice(0) };
}
