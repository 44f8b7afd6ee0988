// @ts-check
/**
 * Find path on a hex map or a waypoint graph: the core's A* (or Dijkstra, when chosen) runs in
 * the worker over the map's graph; the result comes back in the core's terms (axial cells on
 * hexes, point ids on waypoints) and is shown in the lab's (offset cells, points): the explored
 * cells or points coloured as on squares and the path as a line through their centres, with the
 * replay of its expansions (the trace's indices are storage cells on hexes, the points' order
 * sent on waypoints). The engine's settings that apply on any graph (weight, open list, stop
 * rule, budget, recording) are sent; the square ones (neighbours, corner rule, step costs, the
 * grid heuristics, turn cost, turning, the unit) are not: the graph's own heuristic runs (hex
 * distance, or straight-line distance on waypoints).
 *
 * @module graphsearch
 */

import { CancelledError } from './engine.js';
import { readOptions } from './controls.js';
import { axialOf, wireGraphMap } from './maps/kinds.js';
import { toOffset } from './maps/hexgeom.js';
import { dropReplay } from './playback.js';
import { Replay } from './replay.js';
import { fmt, messageOf, plural } from './util.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./app.js').LastResult} LastResult */
/** @typedef {import('./engine.js').Engine} Engine */
/** @typedef {[number, number]} Tile */

/** The methods that plan on hexes and waypoints (the core's registry: graphs hex, waypoint). */
export const GRAPH_METHODS = Object.freeze(['astar', 'dijkstra']);

/** The search settings a graph search sends (the rest are for square grids). */
export const GRAPH_SETTINGS = Object.freeze(['weight', 'open_list', 'stop', 'max_expansions', 'trace']);

/**
 * The plan options of a graph search: its method (A* for one that plans on squares only) and the
 * settings that apply on any graph; the errors of those settings.
 * @param {AppState} app
 */
export function graphOptions(app) {
  const { options, errors } = readOptions(app.search);
  const method = GRAPH_METHODS.includes(options.method) ? options.method : 'astar';
  /** @type {Record<string, unknown>} */
  const out = { method };
  const all = /** @type {Record<string, unknown>} */ (options);
  for (const k of GRAPH_SETTINGS) if (all[k] !== null && all[k] !== undefined) out[k] = all[k];
  if (method === 'dijkstra') delete out.weight;
  const problems = Object.entries(errors).filter(([k]) => GRAPH_SETTINGS.includes(k)).map(([, v]) => v);
  return { options: out, problems, asked: options.method };
}

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
  const { options, problems, asked } = graphOptions(app);
  const method = /** @type {string} */ (options.method);
  const note = method === asked ? '' : ` (${asked} plans on squares only: A* instead)`;
  if (problems.length) {
    const message = `Not searching: ${problems[0]}`;
    app.setStatus('error', message, 0);
    throw new Error(message);
  }
  const map = wireGraphMap(app);
  const start = kind === 'hex' ? axialOf(app, m.start) : /** @type {number} */ (g.start);
  const goal = kind === 'hex' ? axialOf(app, m.goal) : /** @type {number} */ (g.goal);
  const version = m.version;
  const graphVersion = g.version;
  /** point id -> its index in the explored mask (the order sent) */
  const order = new Map(g.nodes.map((n, i) => [n.id, i]));
  if (app.searching) engine.cancel();
  app.searching = true;
  dropReplay(app, 'searching');
  app.setStatus('searching', 'Searching…', null);
  app.emit('controls');
  /** @type {import('./engine.js').SearchResult} */
  let res;
  try {
    res = await engine.findPath({
      map,
      start,
      goal,
      options,
      onProgress: (p) => app.setStatus('searching', `Searching… ${plural(p.expanded, 'node')} expanded`, null),
    });
  } catch (e) {
    app.searching = false;
    app.noReplay = e instanceof CancelledError ? 'cancelled' : 'failed';
    app.emit('replay');
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
  // Hexes: the trace's indices are the storage cells (row * width + col); waypoints: the points' order sent.
  const [across, down] = kind === 'hex' ? [m.width, m.height] : [g.nodes.length, 1];
  /** @type {Replay | null} */
  let player = null;
  const edited = m.version !== version || g.version !== graphVersion;
  if (res.trace && !edited) {
    try {
      player = new Replay(/** @type {any} */ (res.trace), across, down);
      player.seek(player.n);
    } catch (e) {
      console.warn(messageOf(e));
    }
  }
  const explored = player ? player.status : res.explored instanceof Uint8Array ? res.explored : null;
  /** @type {LastResult} */
  const out = {
    status: res.status, path, cost: res.cost ?? null, length: res.length, expanded: res.expanded, ms: res.ms,
    optimal: res.optimal, message: res.message, closedCount: res.closed_count ?? 0, openCount: res.open_count ?? 0,
    start: [...m.start], goal: [...m.goal], version, replay: !!player, method: res.method, edited,
  };
  app.result = out;
  app.shown = {
    explored, scores: player, path, planned: null, version, from: [...m.start], start: [...m.start], goal: [...m.goal],
    format: (v) => fmt(v),
    nodes: kind === 'waypoints' ? ids : undefined,
    graphNodes: kind === 'waypoints' ? order : undefined,
    graphVersion,
  };
  app.replay = player ? { player, driven: true, owed: 0, last: 0 } : null;
  // The service leaves the trace out only past its detail limit.
  app.noReplay = edited ? 'edited' : !options.trace ? 'off' : !res.trace && res.expanded > 0 ? 'too_large' : 'unrecorded';
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
