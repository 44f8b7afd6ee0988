// @ts-check
/**
 * Replaying a search one expansion at a time, from the trace the service
 * sends with small results (see arcstar.service):
 *
 * - `order`: tiles in expansion order (flat indices y * width + x);
 * - `updates`: flat [tile, g, parent, ...] triples, in the order they happened
 *   (the first is the start, g 0, parent -1);
 * - `marks[k]`: how many triples were made before expansion k;
 * - `nodes`, `h`: every tile seen, with its H (H never changes in a search).
 *
 * The state after k expansions: the tiles order[0..k) are closed; every
 * tile's G and parent come from the triples before marks[k] (all of them
 * when k is the last expansion), which include those made by expansion k-1;
 * a tile with a G that is not closed is on the open list. F = G + H.
 *
 * @module replay
 */

/**
 * @typedef {Object} Trace
 * @property {ArrayLike<number>} nodes
 * @property {ArrayLike<number>} g
 * @property {ArrayLike<number>} h
 * @property {ArrayLike<number>} parent
 * @property {ArrayLike<number>} order
 * @property {ArrayLike<number>} updates
 * @property {ArrayLike<number>} marks
 */

/**
 * Check a trace's shape before trusting it (a bad one is refused, not half-drawn).
 * @param {any} trace
 * @param {number} size  width * height
 * @returns {string | null} what is wrong, or null
 */
export function checkTrace(trace, size) {
  if (!trace || typeof trace !== 'object') return 'no trace';
  for (const key of ['nodes', 'h', 'order', 'updates', 'marks']) {
    if (!Array.isArray(trace[key]) && !ArrayBuffer.isView(trace[key])) return `trace.${key} is missing`;
  }
  if (trace.nodes.length !== trace.h.length) return 'trace.nodes and trace.h differ in length';
  if (trace.marks.length !== trace.order.length) return 'trace.marks and trace.order differ in length';
  if (trace.updates.length % 3 !== 0) return 'trace.updates is not made of triples';
  const inMap = (/** @type {any} */ v) => Number.isInteger(v) && v >= 0 && v < size;
  if (!trace.order.every(inMap) || !trace.nodes.every(inMap)) return 'a traced tile lies outside the map';
  for (let j = 0; j < trace.updates.length; j += 3) {
    if (!inMap(trace.updates[j])) return 'a traced update lies outside the map';
  }
  return null;
}

export class Replay {
  /**
   * @param {Trace} trace
   * @param {number} width
   * @param {number} height
   */
  constructor(trace, width, height) {
    const size = width * height;
    const problem = checkTrace(trace, size);
    if (problem) throw new Error(`The search trace cannot be replayed: ${problem}`);
    this.trace = trace;
    this.width = width;
    this.height = height;
    /** number of expansions */
    this.n = trace.order.length;
    /** expansions shown */
    this.k = 0;
    this.playing = false;
    /** 0 unseen, 1 open, 2 closed: the renderer's overlay (changed in place) */
    this.status = new Uint8Array(size);
    this.g = new Float64Array(size).fill(NaN);
    this.h = new Float64Array(size).fill(NaN);
    this.parent = new Int32Array(size).fill(-1);
    for (let j = 0; j < trace.nodes.length; j++) this.h[trace.nodes[j]] = trace.h[j];
    /** triples applied so far */
    this.applied = 0;
    this._reset();
  }

  _reset() {
    this.status.fill(0);
    this.g.fill(NaN);
    this.parent.fill(-1);
    this.applied = 0;
    this.k = 0;
    this._applyTo(this.n > 0 ? this.trace.marks[0] : this.trace.updates.length / 3);
  }

  /** @param {number} count  apply triples up to this count */
  _applyTo(count) {
    const u = this.trace.updates;
    for (let j = this.applied; j < count; j++) {
      const tile = u[3 * j];
      this.g[tile] = u[3 * j + 1];
      this.parent[tile] = u[3 * j + 2];
      if (this.status[tile] !== 2) this.status[tile] = 1;
    }
    this.applied = Math.max(this.applied, count);
  }

  /**
   * Show the state after k expansions (clamped to 0..n).
   * @param {number} k
   * @returns {boolean} whether it changed
   */
  seek(k) {
    const target = Math.max(0, Math.min(this.n, Math.round(k)));
    if (target === this.k) return false;
    if (target < this.k) this._reset();
    const { order, marks, updates } = this.trace;
    while (this.k < target) {
      this.status[order[this.k]] = 2;
      this.k++;
      this._applyTo(this.k < this.n ? marks[this.k] : updates.length / 3);
    }
    return true;
  }

  /** @param {number} d  expansions forward (negative: back) */
  step(d) {
    return this.seek(this.k + d);
  }

  get atEnd() {
    return this.k >= this.n;
  }

  /** The flat index of the tile expanded last (-1 before the first). */
  get current() {
    return this.k > 0 ? this.trace.order[this.k - 1] : -1;
  }

  /**
   * The replayed state of a tile.
   * @param {number} x
   * @param {number} y
   * @returns {{list: 'open' | 'closed' | null, g: number | null, h: number | null, f: number | null, parent: [number, number] | null}}
   */
  tile(x, y) {
    const i = y * this.width + x;
    const s = this.status[i];
    if (!s) return { list: null, g: null, h: null, f: null, parent: null };
    const g = this.g[i];
    const h = this.h[i];
    const p = this.parent[i];
    return {
      list: s === 2 ? 'closed' : 'open',
      g,
      h: Number.isFinite(h) ? h : null,
      f: g + (Number.isFinite(h) ? h : 0),
      parent: p >= 0 ? [p % this.width, Math.floor(p / this.width)] : null,
    };
  }
}
