// @ts-check
/**
 * Find path on a hex map or a waypoint graph: the core's A* (or Dijkstra, when chosen) runs in
 * the worker over the map's graph; the result comes back in the core's terms (axial cells on
 * hexes, point ids on waypoints) and is shown in the lab's (offset cells, points): the explored
 * cells or points coloured as on squares and the path as a line through their centres. The other
 * square settings (neighbours, corner rule, turning, the unit) do not apply and are not sent.
 *
 * @module graphsearch
 */

import { CancelledError } from './engine.js';
import { axialOf, wireGraphMap } from './maps/kinds.js';
import { toOffset } from './maps/hexgeom.js';
import { fmt, messageOf, plural } from './util.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./app.js').LastResult} LastResult */
/** @typedef {import('./engine.js').Engine} Engine */
/** @typedef {[number, number]} Tile */

/** The methods that plan on hexes and waypoints (the core's registry: graphs hex, waypoint). */
export const GRAPH_METHODS = Object.freeze(['astar', 'dijkstra']);

/**
 * Search between the markers (hex) or the start and goal points (waypoints), and show it.
 * @param {AppState} app
 * @param {Engine} engine
 * @returns {Promise<LastResult>}  rejects on error or cancel (the status line says which)
 */
export async function searchGraph(app, engine) {
  const m = app.model;
  const kind = m.kind;
  const g = m.waypoints;
  if (kind === 'waypoints' && (g.start === null || g.goal === null)) {
    const message = 'Not searching: the graph needs a start and a goal point (select a point, then S or G).';
    app.setStatus('error', message, 0);
    throw new Error(message);
  }
  const method = GRAPH_METHODS.includes(app.search.method) ? app.search.method : 'astar';
  const note = method === app.search.method ? '' : ` (${app.search.method} plans on squares only: A* instead)`;
  const map = wireGraphMap(app);
  const start = kind === 'hex' ? axialOf(app, m.start) : /** @type {number} */ (g.start);
  const goal = kind === 'hex' ? axialOf(app, m.goal) : /** @type {number} */ (g.goal);
  const version = m.version;
  const graphVersion = g.version;
  /** point id -> its index in the explored mask (the order sent) */
  const order = new Map(g.nodes.map((n, i) => [n.id, i]));
  if (app.searching) engine.cancel();
  app.searching = true;
  app.setStatus('searching', 'Searching…', null);
  app.emit('controls');
  /** @type {import('./engine.js').SearchResult} */
  let res;
  try {
    res = await engine.findPath({
      map,
      start,
      goal,
      options: { method, trace: true },
      onProgress: (p) => app.setStatus('searching', `Searching… ${plural(p.expanded, 'node')} expanded`, null),
    });
  } catch (e) {
    app.searching = false;
    if (e instanceof CancelledError) app.setStatus('cancelled', 'Search cancelled.', 0);
    else {
      app.result = { status: 'error', message: messageOf(e), version };
      app.setStatus('error', `Error: ${messageOf(e)}`, 0);
    }
    app.emit('controls');
    throw e;
  }
  app.searching = false;
  const ids = Array.isArray(res.path) ? /** @type {Array<string | number>} */ (/** @type {unknown} */ (res.path)) : [];
  /** @type {Tile[]} */
  const path = kind === 'hex' ? ids.map((p) => { const a = /** @type {number[]} */ (/** @type {unknown} */ (p)); return toOffset(a[0], a[1], m.orientation); }) : [];
  const explored = res.explored instanceof Uint8Array ? res.explored : null;
  /** @type {LastResult} */
  const out = {
    status: res.status, path, cost: res.cost ?? null, length: res.length, expanded: res.expanded, ms: res.ms,
    optimal: res.optimal, message: res.message, closedCount: res.closed_count ?? 0, openCount: res.open_count ?? 0,
    start: [...m.start], goal: [...m.goal], version, replay: false, method: res.method,
  };
  app.result = out;
  app.shown = {
    explored, scores: null, path, planned: null, version, from: [...m.start], start: [...m.start], goal: [...m.goal],
    format: (v) => fmt(v),
    nodes: kind === 'waypoints' ? ids : undefined,
    graphNodes: kind === 'waypoints' ? order : undefined,
    graphVersion,
  };
  app.replay = null;
  app.noReplay = 'unrecorded';
  const steps = kind === 'hex' ? plural(Math.max(0, path.length - 1), 'step') : plural(Math.max(0, ids.length - 1), 'edge');
  const found = res.status === 'found';
  app.setStatus(found ? 'found' : res.status,
    found
      ? `Found a path on the ${kind === 'hex' ? 'hex map' : 'waypoint graph'}: ${steps}, cost ${fmt(res.cost ?? 0)}, ${plural(res.expanded, 'node')} expanded${note}.`
      : `No path: ${res.message || res.status}${note}.`,
    1);
  app.emit('replay', 'map', 'controls');
  return out;
}
