// @ts-check
/**
 * The map's kind: squares, hex or waypoints. Switching is one undo step and keeps what can be
 * kept: squares and hexes share the cells (tile (x, y) becomes the hex at offset column x, row y,
 * odd-r rows pointy-top, odd-q columns flat-top, as the core stores them), the waypoint graph is
 * kept beside the cells, so switching back brings either back as it was. What does not carry
 * over (the units, the markers' headings and turning on hexes and waypoints) is said in the
 * status line. Also: the view fitted to the kind, and the map as the worker's plan takes it.
 *
 * @module maps/kinds
 */

import { ORIENTATIONS, hexExtent, toAxial } from './hexgeom.js';
import { readWaypoints } from './waypointgraph.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {'squares' | 'hex' | 'waypoints'} MapKind */
/** @typedef {import('./hexgeom.js').Orientation} Orientation */

/** @type {readonly MapKind[]} */
export const MAP_KINDS = Object.freeze(['squares', 'hex', 'waypoints']);

/** What a switch to each kind says (what is kept, what is not). */
const SAID = Object.freeze({
  squares: 'Squares: the same cells as tiles again.',
  hex: 'Hex: the same cells as hexes (tile x, y is the hex at column x, row y). Paint, erase and drag S and G as on squares; units, headings, turning and the replay are for squares only.',
  waypoints: 'Waypoints: click to add a point, drag to move it, Shift+drag from one point to another to link or unlink them, Delete removes the selected point. The cells are kept for when you switch back; units, headings and turning are for squares only.',
});

/**
 * Fit the view to the map as its kind draws it (hexes are wider than tiles; waypoints lie on
 * the squares' board).
 * @param {AppState} app
 */
export function fitKind(app) {
  const m = app.model;
  if (m.kind === 'hex') {
    const [w, h] = hexExtent(m.width, m.height, m.orientation);
    app.viewport.showMap(w, h);
  } else {
    app.viewport.showMap(m.width, m.height);
  }
  app.emit('view', 'map', 'controls');
}

/**
 * Show a kind and orientation (the undo steps' work): the search drawn goes, the view is fitted.
 * @param {AppState} app
 * @param {MapKind} kind
 * @param {Orientation} orientation
 */
function put(app, kind, orientation) {
  const m = app.model;
  m.kind = kind;
  m.orientation = orientation;
  app.shown = null;
  app.result = null;
  app.hover = null;
  if (app.unit.moving) app.unit.stop();
  fitKind(app);
}

/**
 * Switch the map's kind (one undo step). Says what was kept.
 * @param {AppState} app
 * @param {string} kind
 * @returns {boolean} whether it changed
 */
export function setKind(app, kind) {
  const m = app.model;
  if (!MAP_KINDS.includes(/** @type {MapKind} */ (kind))) throw new Error(`The map kind must be one of ${MAP_KINDS.join(', ')} (got ${JSON.stringify(kind)?.slice(0, 40)})`);
  const to = /** @type {MapKind} */ (kind);
  const from = m.kind;
  if (to === from) return false;
  const o = m.orientation;
  if (app.world.on && app.world.mode === 'units') {
    app.world.mode = 'edit';
    app.emit('world');
  }
  put(app, to, o);
  m.record({ label: `switch to ${to}`, undo: () => put(app, from, o), redo: () => put(app, to, o) });
  app.setStatus(app.engineState === 'ready' ? 'ready' : app.status.state, `${SAID[to]} Undo (Ctrl+Z) switches back.`, app.status.progress);
  return true;
}

/**
 * Draw hexes pointy-top or flat-top (one undo step). The cells keep their offset places, so
 * which cells are neighbours changes with it (odd-r rows or odd-q columns, as the core's).
 * @param {AppState} app
 * @param {string} orientation
 * @returns {boolean} whether it changed
 */
export function setOrientation(app, orientation) {
  const m = app.model;
  if (!ORIENTATIONS.includes(/** @type {Orientation} */ (orientation))) throw new Error(`Hexes are pointy or flat (got ${JSON.stringify(orientation)?.slice(0, 40)})`);
  const to = /** @type {Orientation} */ (orientation);
  const from = m.orientation;
  if (to === from) return false;
  const kind = m.kind;
  put(app, kind, to);
  m.record({ label: `${to}-top hexes`, undo: () => put(app, kind, from), redo: () => put(app, kind, to) });
  return true;
}

/**
 * The map as a plan request takes it on a hex map or a waypoint graph (wireMap's form, with
 * `kind`): hex cells as for squares under a version of their own per orientation (the worker
 * caches by version); the waypoints' nodes and edges in the request.
 * @param {AppState} app
 */
export function wireGraphMap(app) {
  const m = app.model;
  /** @type {Array<[number, number | null]>} */
  const terrainCosts = [];
  m.costs.forEach((c, code) => {
    if (c !== undefined) terrainCosts.push([code, c]);
  });
  if (m.kind === 'hex') {
    return { kind: m.kind, orientation: m.orientation, width: m.width, height: m.height, version: `hex-${m.orientation}-${m.version}`, cells: m.cells, terrainCosts };
  }
  const g = m.waypoints;
  return { kind: m.kind, width: m.width, height: m.height, version: `waypoints-${g.version}`, cells: new Uint8Array(0), ...g.wire() };
}

/**
 * A marker (an offset cell) as the core's axial [q, r].
 * @param {AppState} app
 * @param {[number, number]} cell
 * @returns {[number, number]}
 */
export function axialOf(app, cell) {
  return toAxial(cell[0], cell[1], app.model.orientation);
}

/**
 * Keep the view fitted to the kind when a new map opens (edits.js fits it as squares first).
 * @param {AppState} app
 */
export function followKind(app) {
  app.model.subscribe((change) => {
    if (change === 'load' && app.model.kind === 'hex') fitKind(app);
  });
}

/**
 * The map kind's part of the work (io/work.js): the kind, the hex orientation and the waypoint graph.
 * @typedef {{kind: MapKind, orientation: Orientation, waypoints: import('./waypointgraph.js').WaypointData}} KindWork
 */

/**
 * The kind's part of the work as it is now (a copy).
 * @param {AppState} app
 * @returns {KindWork}
 */
export function kindWork(app) {
  const m = app.model;
  return { kind: m.kind, orientation: m.orientation, waypoints: m.waypoints.toData() };
}

/**
 * Check a snapshot's kind part (untrusted; older snapshots have none: squares). Throws an Error
 * saying what is wrong.
 * @param {unknown} source
 * @returns {KindWork}
 */
export function readKindWork(source) {
  if (source === undefined || source === null) return { kind: 'squares', orientation: 'pointy', waypoints: { nodes: [], edges: [], start: null, goal: null } };
  const d = /** @type {any} */ (source);
  if (typeof d !== 'object' || Array.isArray(d)) throw new Error('the map kind is malformed');
  if (!MAP_KINDS.includes(d.kind)) throw new Error(`the map kind ${JSON.stringify(d.kind)?.slice(0, 30)} is not one the lab knows (${MAP_KINDS.join(', ')})`);
  if (!ORIENTATIONS.includes(d.orientation)) throw new Error(`the hex orientation ${JSON.stringify(d.orientation)?.slice(0, 30)} is not pointy or flat`);
  return { kind: d.kind, orientation: d.orientation, waypoints: readWaypoints(d.waypoints) };
}

/**
 * Show a checked kind part (a snapshot opened: no undo step of its own).
 * @param {AppState} app
 * @param {KindWork} work
 */
export function showKindWork(app, work) {
  const m = app.model;
  m.waypoints.setData(work.waypoints);
  put(app, work.kind, work.orientation);
}
