// @ts-check
/**
 * The lab's waypoint graph: points in tile units (x right, y down) with integer ids, undirected
 * edges between them (each costs its length, as the core's default), and the start and goal
 * points. It is data only: the edits and their undo steps are in waypointedit.js, the reading of
 * a snapshot (untrusted) is `readWaypoints` here.
 *
 * @module maps/waypointgraph
 */

/** The most points a graph in the lab holds (larger graphs are the library's). */
export const MAX_POINTS = 5000;
/** The most edges. */
export const MAX_EDGES = 20000;
/** Coordinates lie within +- this (tiles). */
export const MAX_COORD = 1e6;

/** @typedef {{id: number, x: number, y: number}} WayPoint */
/** @typedef {{nodes: Array<[number, number, number]>, edges: Array<[number, number]>, start: number | null,
 *   goal: number | null}} WaypointData  as a snapshot keeps it: nodes [id, x, y] */

/** Versions never reused, so the worker can key its cache by one. */
let versions = 0;

export class WaypointGraph {
  constructor() {
    /** @type {WayPoint[]} */
    this.nodes = [];
    /** @type {Array<[number, number]>} undirected, each pair once */
    this.edges = [];
    /** @type {number | null} */
    this.start = null;
    /** @type {number | null} */
    this.goal = null;
    /** the id the next point gets */
    this.nextId = 1;
    /** @type {number | null} the point selected in the editor (not part of the work) */
    this.selected = null;
    /** @type {{from: number, x: number, y: number} | null} a link being dragged from a point to (x, y) (editor only) */
    this.linking = null;
    /** @type {'point' | 'link'} what a press on a point does: move it (Shift: link), or link */
    this.tool = 'point';
    this.version = ++versions;
  }

  /** Say that the graph changed (a new version for the worker). */
  touch() {
    this.version = ++versions;
  }

  /** @param {number} id */
  node(id) {
    return this.nodes.find((n) => n.id === id) ?? null;
  }

  /** @param {number} a @param {number} b */
  edgeIndex(a, b) {
    return this.edges.findIndex(([u, v]) => (u === a && v === b) || (u === b && v === a));
  }

  /**
   * The point nearest (x, y) within `radius` tiles, or null.
   * @param {number} x @param {number} y @param {number} radius
   */
  pointAt(x, y, radius) {
    let best = null;
    let bestD = radius;
    for (const n of this.nodes) {
      const d = Math.hypot(n.x - x, n.y - y);
      if (d <= bestD) {
        best = n;
        bestD = d;
      }
    }
    return best;
  }

  /** @returns {WaypointData} */
  toData() {
    return { nodes: this.nodes.map((n) => [n.id, n.x, n.y]), edges: this.edges.map(([a, b]) => [a, b]), start: this.start, goal: this.goal };
  }

  /**
   * Take a snapshot's graph (already checked by readWaypoints).
   * @param {WaypointData} d
   */
  setData(d) {
    this.nodes = d.nodes.map(([id, x, y]) => ({ id, x, y }));
    this.edges = d.edges.map(([a, b]) => [a, b]);
    this.start = d.start;
    this.goal = d.goal;
    this.nextId = Math.max(0, ...this.nodes.map((n) => n.id)) + 1;
    this.selected = null;
    this.touch();
  }

  /** The graph as the worker's plan request takes it (arcstar waypoint JSON's nodes and edges). */
  wire() {
    return {
      nodes: this.nodes.map((n) => ({ id: n.id, x: n.x, y: n.y })),
      edges: this.edges.map(([a, b]) => ({ from: a, to: b })),
    };
  }
}

/**
 * @param {boolean} ok
 * @param {string} what
 */
function need(ok, what) {
  if (!ok) throw new Error(what);
}

/**
 * Check a snapshot's waypoint graph, entry by entry; throws an Error saying what is wrong.
 * @param {unknown} source
 * @returns {WaypointData}
 */
export function readWaypoints(source) {
  const d = /** @type {any} */ (source);
  need(typeof d === 'object' && d !== null && !Array.isArray(d), 'the waypoint graph is malformed');
  need(Array.isArray(d.nodes) && Array.isArray(d.edges), 'the waypoint graph has no list of points or edges');
  need(d.nodes.length <= MAX_POINTS, `the waypoint graph has ${Number(d.nodes.length).toLocaleString('en-US')} points, more than the lab holds (${MAX_POINTS.toLocaleString('en-US')})`);
  need(d.edges.length <= MAX_EDGES, `the waypoint graph has more than ${MAX_EDGES.toLocaleString('en-US')} edges`);
  const ids = new Set();
  /** @type {Array<[number, number, number]>} */
  const nodes = d.nodes.map((/** @type {unknown} */ n, /** @type {number} */ i) => {
    need(Array.isArray(n) && n.length === 3, `waypoint ${i + 1} is malformed`);
    const [id, x, y] = /** @type {any[]} */ (n);
    need(Number.isInteger(id) && id >= 1 && id <= 2 ** 31 && !ids.has(id), `waypoint ${i + 1} has no id of its own`);
    need([x, y].every((v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= MAX_COORD),
      `waypoint ${i + 1} lies at ${JSON.stringify([x, y])?.slice(0, 40)}, not a point (finite numbers within ${MAX_COORD.toExponential()})`);
    ids.add(id);
    return [id, x, y];
  });
  const pairs = new Set();
  /** @type {Array<[number, number]>} */
  const edges = d.edges.map((/** @type {unknown} */ e, /** @type {number} */ i) => {
    need(Array.isArray(e) && e.length === 2, `edge ${i + 1} is malformed`);
    const [a, b] = /** @type {any[]} */ (e);
    need(ids.has(a) && ids.has(b), `edge ${i + 1} joins ${JSON.stringify(e)?.slice(0, 40)}: not two of the graph's points`);
    need(a !== b, `edge ${i + 1} joins a point to itself`);
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    need(!pairs.has(key), `edge ${i + 1} repeats another`);
    pairs.add(key);
    return [a, b];
  });
  for (const which of ['start', 'goal']) {
    need(d[which] === null || ids.has(d[which]), `the ${which} is not one of the graph's points`);
  }
  return { nodes, edges, start: d.start, goal: d.goal };
}
