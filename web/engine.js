// @ts-check
/**
 * The page's client of the search worker: boot progress, a promise-based
 * findPath, cancel. The page never runs a search itself.
 *
 * Messages, page -> worker:
 *   {type:'plan', id, map:{width, height, version, cells?: Uint8Array, terrain_costs?}, start, goal, options}
 *   {type:'cancel', id}
 *   {type:'info', id} | {type:'load_map', id, text} | {type:'load_scen', id, text, width, height}
 * worker -> page:
 *   {type:'boot', stage:'pyodide'|'numpy'|'arcstar'|'ready'|'failed', progress, message}
 *   {type:'started'|'progress'|'result'|'error'|'cancelled', id, ...}
 *   {type:'info'|'map'|'scenarios', id, ...}  (answers to the requests)
 *
 * The worker keeps the last map it was sent, keyed by version; the engine
 * sends the cells (a copy, transferred) and the terrain costs only when the
 * version changed (the page's model bumps it on every terrain or cost edit).
 *
 * @module engine
 */

/**
 * @typedef {Object} SearchResult
 * @property {'found' | 'no_path' | 'budget_exhausted' | 'cancelled' | string} status
 * @property {Array<[number, number]>} path   tiles, start to goal
 * @property {number | null} cost
 * @property {number} length
 * @property {number} expanded
 * @property {number} ms
 * @property {boolean} [optimal]
 * @property {string} [message]
 * @property {Uint8Array | null} [explored]  one byte per tile: 0 unseen, 1 open, 2 closed
 * @property {number} [closed_count]
 * @property {number} [open_count]
 * @property {Object} [trace]  the replay log of a small search (see arcstar.service)
 */

/**
 * @typedef {Object} BootInfo
 * @property {string} stage
 * @property {number} progress  0..1
 * @property {string} message
 */

/**
 * @typedef {Object} PlanRequest
 * @property {{width: number, height: number, version: number, cells: Uint8Array,
 *             terrainCosts?: Array<[number, number | null]>}} map
 * @property {[number, number]} start
 * @property {[number, number]} goal
 * @property {Record<string, unknown>} [options]
 * @property {(p: {expanded: number, open: number}) => void} [onProgress]
 */

/** The error a cancelled (or superseded) search rejects with. */
export class CancelledError extends Error {
  /** @param {string} [message] */
  constructor(message = 'Search cancelled') {
    super(message);
    this.name = 'CancelledError';
    this.cancelled = true;
  }
}

/** An error reported by the worker or the Python service. */
export class EngineError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'EngineError';
  }
}

export class Engine {
  /**
   * @param {URL | string} workerUrl
   * @param {(info: BootInfo) => void} [onBoot]
   */
  constructor(workerUrl, onBoot) {
    /** @type {BootInfo} */
    this.boot = { stage: 'starting', progress: 0, message: 'Starting the search worker…' };
    this.onBoot = onBoot || (() => {});
    this.isReady = false;
    /** @type {number | null} the map version the worker holds */
    this.workerVersion = null;
    this.nextId = 1;
    /** @type {Map<string | number | null, {resolve: (v: any) => void, reject: (e: any) => void, onProgress?: Function, raw?: boolean, request?: boolean}>} */
    this.pending = new Map();
    /** @type {number | null} the id of the running search */
    this.current = null;
    /** @type {Map<number, number>} cancel sent (performance.now) per search id, until acknowledged */
    this.cancelSent = new Map();
    /** What the worker acknowledged: how many cancels, and how long the last one took to arrive. */
    this.stats = { cancelAcks: 0, lastCancelMs: /** @type {number | null} */ (null) };

    /** @type {(v: BootInfo) => void} */
    let resolveReady = () => {};
    /** @type {(e: Error) => void} */
    let rejectReady = () => {};
    /** @type {Promise<BootInfo>} resolves when the engine can search */
    this.ready = new Promise((res, rej) => {
      resolveReady = res;
      rejectReady = rej;
    });
    this._resolveReady = resolveReady;
    this._rejectReady = rejectReady;
    // A rejected ready must not show up as an unhandled rejection; callers see it when they await.
    this.ready.catch(() => {});

    this.worker = new Worker(workerUrl, { type: 'module' });
    this.worker.onmessage = (e) => this._onMessage(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault();
      this._fail(`The search worker failed: ${e.message || 'it could not be started'}`);
    };
    this.worker.onmessageerror = () => this._fail('The search worker sent a message that could not be read');
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
    if (msg.type === 'boot') {
      this.boot = { stage: msg.stage, progress: msg.progress ?? 0, message: msg.message ?? '' };
      if (msg.stage === 'ready') {
        this.isReady = true;
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
      if (msg.type === 'error') p.reject(new EngineError(msg.message || 'Unknown error in the search engine'));
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
        p.reject(new EngineError(msg.message || 'Unknown error in the search engine'));
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
    const { map } = req;
    /** @type {{width: number, height: number, version: number, cells?: Uint8Array, terrain_costs?: Array<[number, number | null]>}} */
    const wireMap = { width: map.width, height: map.height, version: map.version };
    /** @type {Transferable[]} */
    const transfer = [];
    if (this.workerVersion !== map.version) {
      const copy = map.cells.slice();
      wireMap.cells = copy;
      if (map.terrainCosts) wireMap.terrain_costs = map.terrainCosts;
      transfer.push(copy.buffer);
      this.workerVersion = map.version;
    }
    this.worker.postMessage(
      { type: 'plan', id, map: wireMap, start: req.start, goal: req.goal, options: req.options || {} },
      transfer,
    );
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
      this.worker.postMessage({ type: 'cancel', id });
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
   * load_scen); it does not disturb a running search. Waits for the engine.
   *
   * @param {Record<string, unknown>} msg  without an id
   * @returns {Promise<any>} the answer; rejects with EngineError
   */
  async request(msg) {
    await this.ready;
    const id = `r${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, request: true });
      try {
        this.worker.postMessage({ ...msg, id });
      } catch (e) {
        this.pending.delete(id);
        reject(new EngineError(`The request could not be sent to the worker: ${/** @type {Error} */ (e).message}`));
      }
    });
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
        this.worker.postMessage(msg);
      } catch (e) {
        this.pending.delete(id);
        reject(e);
      }
    });
  }
}
