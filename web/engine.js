// @ts-check
/**
 * The page's client of the search worker: boot progress, a promise-based
 * findPath, cancel, and requests answered at once (info, load_map,
 * load_scen, describe). The page never runs a search itself.
 *
 * Every message is defined once, in pycore/arcstar/service/protocol.schema.json
 * (JSON Schema 2020-12); protocol.js holds its typedefs and the request builders
 * (re-exported here), and tests/js validates what they produce against it. Code reads typed fields:
 * `result.status` (Status), an error's `kind` (ErrorKind) and `field` (the
 * dotted name of the bad part of the request); messages are for people.
 *
 * Binary parts travel beside the JSON as transferred typed arrays: a plan's
 * `map.cells` (Uint8Array), a result's `explored` and `trace` arrays, a loaded
 * map's `cells`.
 *
 * The worker keeps the last map it was sent, keyed by version; the engine
 * sends the cells (a copy, transferred) and the terrain costs only when the
 * version changed (the page's model bumps it on every terrain or cost edit).
 *
 * A worker that dies (an uncaught error, a broken runtime it reports as
 * `crashed`, or silence for `silenceMs` while an answer is owed) is replaced:
 * what was waiting rejects with EngineStoppedError, `onBoot` hears a
 * 'restarting' stage and then the new worker's boot, and the next search sends
 * the map again. The page keeps its map and settings; the worker holds nothing
 * the page cannot send again. More than MAX_RESTARTS deaths a minute are final.
 *
 * The world (units in motion) lives in the worker too: `worldStart` sends the map as a search
 * does, `request` sends the other world messages, and every `world_state` the worker posts (the
 * answers to those, and the states its scheduler posts while the world plays, id null) goes to
 * `onWorld`, as does an error with id null (the playing world failed).
 *
 * @module engine
 */

import { ErrorKind, cancelMessage, planMessage, requestMessage, worldStartMessage } from './protocol.js';

export * from './protocol.js';

/** @typedef {import('./protocol.js').Id} Id */
/** @typedef {import('./protocol.js').ErrorMessage} ErrorMessage */
/** @typedef {import('./protocol.js').DescribeMessage} DescribeMessage */
/** @typedef {import('./protocol.js').PlanRequest} PlanRequest */
/** @typedef {import('./protocol.js').SearchResult} SearchResult */

/**
 * @typedef {Object} BootInfo
 * @property {string} stage
 * @property {number} progress  0..1
 * @property {string} message
 * @property {string} [reason]  with stage 'restarting': why the last worker stopped, for people
 */


// ---------------------------------------------------------------- errors

/** The error a cancelled (or superseded) search rejects with. */
export class CancelledError extends Error {
  /** @param {string} [message] */
  constructor(message = 'Search cancelled') {
    super(message);
    this.name = 'CancelledError';
    this.cancelled = true;
  }
}

/**
 * An error reported by the worker or the Python service. Code reads `kind`
 * (bad_input: the request was wrong; internal: arcstar failed) and `field`
 * (e.g. 'options.weight', 'start'; '' when none), never the message.
 */
export class EngineError extends Error {
  /**
   * @param {string} message
   * @param {{kind?: ErrorKind, field?: string, id?: Id | null, codeError?: import('./protocol.js').CodeError | null}} [details]
   */
  constructor(message, details = {}) {
    super(message);
    this.name = 'EngineError';
    /** @type {ErrorKind} */
    this.kind = details.kind ?? ErrorKind.INTERNAL;
    /** @type {string} */
    this.field = details.field ?? '';
    /** @type {Id | null} */
    this.id = details.id ?? null;
    /** Where the Python panel's code failed, when it did. @type {import('./protocol.js').CodeError | null} */
    this.codeError = details.codeError ?? null;
  }

  /**
   * The error an error answer stands for.
   * @param {Partial<ErrorMessage>} msg
   */
  static fromAnswer(msg) {
    const kind = msg.kind === ErrorKind.BAD_INPUT ? ErrorKind.BAD_INPUT : ErrorKind.INTERNAL;
    return new EngineError(msg.message || 'Unknown error in the search engine', {
      kind,
      field: typeof msg.field === 'string' ? msg.field : '',
      id: msg.id ?? null,
      codeError: msg.code_error && typeof msg.code_error === 'object' ? msg.code_error : null,
    });
  }
}

/** What a request waiting on a worker that died rejects with (the engine starts a new one). */
export class EngineStoppedError extends EngineError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'EngineStoppedError';
    this.stopped = true;
  }
}

/** How long a worker may stay silent while an answer is owed before it is taken for dead, ms. */
export const SILENCE_MS = 20000;
/** Deaths within a minute after which the engine stops restarting (something is broken for good). */
export const MAX_RESTARTS = 3;

/**
 * A promise that the engine is ready, with its resolve and reject; a rejection is never
 * reported as unhandled (callers see it when they await).
 */
function readySignal() {
  /** @type {(v: BootInfo) => void} */
  let resolve = () => {};
  /** @type {(e: Error) => void} */
  let reject = () => {};
  /** @type {Promise<BootInfo>} */
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

export class Engine {
  /**
   * @param {URL | string} workerUrl
   * @param {(info: BootInfo) => void} [onBoot]
   * @param {{silenceMs?: number, worker?: {worker: Worker, held: MessageEvent[]}}} [options]
   *   `worker`: one already started from workerUrl (see boot.js), with the messages it sent so far
   */
  constructor(workerUrl, onBoot, options = {}) {
    this.workerUrl = workerUrl;
    this.onBoot = onBoot || (() => {});
    this.silenceMs = options.silenceMs ?? SILENCE_MS;
    this.nextId = 1;
    /** @type {Map<string | number | null, {resolve: (v: any) => void, reject: (e: any) => void, onProgress?: Function, raw?: boolean, request?: boolean}>} */
    this.pending = new Map();
    /** @type {number | null} the id of the running search */
    this.current = null;
    /** @type {Map<number, number>} cancel sent (performance.now) per search id, until acknowledged */
    this.cancelSent = new Map();
    /** What the worker acknowledged: how many cancels, and how long the last one took to arrive; restarts; boot stages. */
    this.stats = {
      cancelAcks: 0,
      lastCancelMs: /** @type {number | null} */ (null),
      restarts: 0,
      /** @type {Array<{stage: string, at: number}>} when each boot stage began (ms since the page began loading) */
      bootStages: [],
      /** whether the worker's Python started from the site's memory snapshot */
      fromSnapshot: false,
    };
    /** @type {number[]} when workers died (performance.now), the last minute's */
    this.deaths = [];
    /** @type {number} when the worker was last heard from, or an answer first became owed */
    this.lastHeard = performance.now();
    /** @type {BootInfo} */
    this.boot = { stage: 'starting', progress: 0, message: 'Starting the search worker…' };
    /** @type {((msg: any) => void) | null} hears every world_state, and errors with id null */
    this.onWorld = null;
    this.isReady = false;
    /** @type {number | string | null} the map version the worker holds */
    this.workerVersion = null;
    const signal = readySignal();
    /** @type {Promise<BootInfo>} resolves when the engine can search (a new promise per worker) */
    this.ready = signal.promise;
    this._resolveReady = signal.resolve;
    this._rejectReady = signal.reject;
    this.worker = this._newWorker(options.worker?.worker);
    this.watchdog = setInterval(() => this._checkAlive(), 1000);
    for (const e of options.worker?.held ?? []) this._onMessage(e.data);
  }

  /**
   * A worker wired to this engine: a new one, or one already started (the messages of a
   * replaced worker are ignored).
   * @param {Worker} [started]
   */
  _newWorker(started) {
    const worker = started ?? new Worker(this.workerUrl, { type: 'module' });
    worker.onmessage = (e) => {
      if (worker !== this.worker) return; // a replaced worker's last words
      this.lastHeard = performance.now();
      this._onMessage(e.data);
    };
    worker.onerror = (e) => {
      e.preventDefault();
      if (worker !== this.worker) return;
      const why = e.message || 'it could not be started';
      if (this.isReady) this._restart(`an error in the worker: ${why}`);
      else this._fail(`The search worker failed: ${why}`);
    };
    worker.onmessageerror = () => this._fail('The search worker sent a message that could not be read');
    return worker;
  }

  /**
   * Replace the worker with a new one (the old one is stopped): for a worker that died, or
   * when the user asks. Waiting requests reject with EngineStoppedError.
   * @param {string} [reason]  why, for people
   */
  restart(reason = 'restarted on request') {
    this._restart(reason);
  }

  /** @param {string} reason */
  _restart(reason) {
    this.worker.terminate();
    const error = new EngineStoppedError(`The engine stopped (${reason}); a new one is starting`);
    for (const [, p] of this.pending) p.reject(error);
    this.pending.clear();
    this.current = null;
    this.cancelSent.clear();
    this.stats.restarts++;
    const now = performance.now();
    this.deaths = this.deaths.filter((t) => now - t < 60000);
    this.deaths.push(now);
    if (this.deaths.length > MAX_RESTARTS) {
      this.isReady = false;
      this.ready = Promise.reject(new EngineError(`The engine stopped ${this.deaths.length} times in a minute (${reason})`));
      this.ready.catch(() => {});
      this.boot = { stage: 'failed', progress: 0, message: `The engine stopped ${this.deaths.length} times in a minute (last: ${reason}); reload the page to try again` };
      this.onBoot(this.boot);
      return;
    }
    this.boot = {
      stage: 'restarting',
      progress: 0,
      message: `The engine stopped (${reason}); starting a new one, your map and settings are kept…`,
      reason,
    };
    this.isReady = false;
    this.workerVersion = null;
    const signal = readySignal();
    this.ready = signal.promise;
    this._resolveReady = signal.resolve;
    this._rejectReady = signal.reject;
    this.onBoot(this.boot);
    this.worker = this._newWorker();
  }

  /** Take a worker that owes an answer and has been silent for `silenceMs` for dead. */
  _checkAlive() {
    if (!this.isReady || this.pending.size === 0) return;
    if (performance.now() - this.lastHeard > this.silenceMs) this._restart(`no answer for ${Math.round(this.silenceMs / 1000)} s`);
  }

  /**
   * Post to the worker; an answer becomes owed now if none was.
   * @param {any} message
   * @param {Transferable[]} [transfer]
   */
  _post(message, transfer = []) {
    if (this.pending.size <= 1) this.lastHeard = performance.now();
    this.worker.postMessage(message, transfer);
  }

  /** @param {string} message */
  _fail(message) {
    this.boot = { stage: 'failed', progress: this.boot.progress, message };
    this.onBoot(this.boot);
    this._rejectReady(new EngineError(message));
    for (const [, p] of this.pending) p.reject(new EngineError(message));
    this.pending.clear();
    this.current = null;
  }

  /** @param {any} msg */
  _onMessage(msg) {
    if (!msg || typeof msg !== 'object') return;
    if (msg.type === 'crashed') {
      this._restart(msg.message || 'its runtime broke');
      return;
    }
    if (msg.type === 'boot') {
      if (msg.stage !== this.boot.stage) this.stats.bootStages.push({ stage: String(msg.stage), at: Math.round(performance.now()) });
      this.boot = { stage: msg.stage, progress: msg.progress ?? 0, message: msg.message ?? '' };
      if (msg.stage === 'ready') {
        this.isReady = true;
        this.stats.fromSnapshot = msg.from_snapshot === true;
        this.onBoot(this.boot);
        this._resolveReady(this.boot);
      } else if (msg.stage === 'failed') {
        this._fail(msg.message || 'The engine failed to load');
      } else {
        this.onBoot(this.boot);
      }
      return;
    }
    const id = msg.id ?? null;
    if (this.onWorld && (msg.type === 'world_state' || (msg.type === 'error' && id === null))) this.onWorld(msg);
    if (msg.type === 'cancelled' && this.cancelSent.has(id)) {
      // The worker stopped the search: it handles messages between slices.
      this.stats.cancelAcks++;
      this.stats.lastCancelMs = performance.now() - /** @type {number} */ (this.cancelSent.get(id));
      this.cancelSent.delete(id);
    }
    const p = this.pending.get(id);
    if (!p) return; // a late answer for a request nobody waits for
    if (p.request) {
      this.pending.delete(id);
      if (msg.type === 'error') p.reject(EngineError.fromAnswer(msg));
      else p.resolve(msg);
      return;
    }
    if (p.raw) {
      if (msg.type === 'progress' || msg.type === 'started') return;
      this.pending.delete(id);
      if (this.current === id) this.current = null;
      p.resolve(msg);
      return;
    }
    switch (msg.type) {
      case 'started':
        break;
      case 'progress':
        if (p.onProgress) p.onProgress({ expanded: msg.expanded, open: msg.open });
        break;
      case 'result':
        this.pending.delete(id);
        if (this.current === id) this.current = null;
        p.resolve(msg.result);
        break;
      case 'cancelled':
        this.pending.delete(id);
        if (this.current === id) this.current = null;
        p.reject(new CancelledError(msg.message || 'Search cancelled'));
        break;
      case 'error':
        this.pending.delete(id);
        if (this.current === id) this.current = null;
        // The worker may not have kept the map: send it again next time.
        this.workerVersion = null;
        p.reject(EngineError.fromAnswer(msg));
        break;
      default:
        break;
    }
  }

  /** Whether a search is running. */
  get busy() {
    return this.current !== null;
  }

  /**
   * Run a search in the worker. A running search is cancelled first.
   * Waits for the engine to be ready.
   *
   * @param {PlanRequest} req
   * @returns {Promise<SearchResult>} rejects with CancelledError or EngineError
   */
  async findPath(req) {
    if (this.current !== null) this.cancel();
    const id = this.nextId++;
    this.current = id; // claim it now, so a cancel before ready is honoured
    /** @type {Promise<SearchResult>} */
    const done = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress: req.onProgress });
    });
    try {
      await this.ready;
    } catch (e) {
      this.pending.delete(id);
      if (this.current === id) this.current = null;
      throw e;
    }
    if (!this.pending.has(id)) return done; // cancelled while waiting for the engine
    const withCells = this.workerVersion !== req.map.version;
    const { message, transfer } = planMessage(id, req, withCells);
    if (withCells) this.workerVersion = req.map.version;
    this._post(message, transfer);
    return done;
  }

  /**
   * Cancel the running search (if any). Its promise rejects with CancelledError.
   * @returns {boolean} whether a search was running
   */
  cancel() {
    const id = this.current;
    if (id === null) return false;
    this.current = null;
    const p = this.pending.get(id);
    if (this.isReady) {
      this.cancelSent.set(id, performance.now());
      this.worker.postMessage(cancelMessage(id));
    }
    // Settle now: the page must not wait for the worker to notice.
    if (p) {
      this.pending.delete(id);
      p.reject(new CancelledError());
    }
    return true;
  }

  /**
   * Ask the worker something that is answered at once (info, load_map,
   * load_scen, describe); it does not disturb a running search. Waits for the engine.
   *
   * @param {Record<string, unknown>} msg  without an id
   * @returns {Promise<any>} the answer; rejects with EngineError (its kind and field say what was wrong)
   */
  async request(msg) {
    await this.ready;
    const id = `r${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, request: true });
      try {
        this._post(requestMessage(id, msg));
      } catch (e) {
        this.pending.delete(id);
        reject(new EngineError(`The request could not be sent to the worker: ${/** @type {Error} */ (e).message}`));
      }
    });
  }

  /**
   * Start a world (units in motion) on a map, sent as a search sends it (its cells only when the
   * worker does not hold that version). Resolves with the first world_state.
   * @param {PlanRequest['map']} map
   * @param {{seed?: number, avoidance?: string, dt?: number, fog?: boolean}} [options]
   * @returns {Promise<import('./protocol.js').WorldStateMessage>} rejects with EngineError
   */
  async worldStart(map, options = {}) {
    await this.ready;
    const id = `w${this.nextId++}`;
    const withCells = this.workerVersion !== map.version;
    const { message, transfer } = worldStartMessage(id, map, options, withCells);
    /** @type {Promise<import('./protocol.js').WorldStateMessage>} */
    const answer = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, request: true });
      if (withCells) this.workerVersion = map.version;
      this._post(message, transfer);
    });
    return answer.catch((e) => {
      this.workerVersion = null; // the worker may not hold the map: send it again next time
      throw e;
    });
  }

  /**
   * What a plan with these options guarantees, without planning: whether its
   * paths are optimal, whether they are always legal for the unit (null: no
   * turning stage, so no verdict), and a sentence for people.
   *
   * @param {Record<string, unknown>} [options]
   * @returns {Promise<DescribeMessage>}
   */
  async describe(options = {}) {
    return this.request({ type: 'describe', options });
  }

  /**
   * Test hook: post any message to the worker and wait for its answer
   * (the first non-progress reply carrying the same id, or id null).
   *
   * @param {any} msg
   * @returns {Promise<any>}
   */
  async raw(msg) {
    await this.ready;
    const id = msg && typeof msg === 'object' && (typeof msg.id === 'number' || typeof msg.id === 'string') ? msg.id : null;
    if (this.current !== null) this.cancel();
    // The raw message may carry a map the engine did not track.
    this.workerVersion = null;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, raw: true });
      try {
        this._post(msg);
      } catch (e) {
        this.pending.delete(id);
        reject(e);
      }
    });
  }
}
