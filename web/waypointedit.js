// @ts-check
/**
 * Editing a waypoint graph on the map, each edit one undo step in the map's history: a click on
 * empty ground adds a point (the first two become the start and the goal), dragging a point
 * moves it, Shift+drag (or the Link tool) from one point to another links them or, when linked,
 * unlinks them; Delete removes the selected point with its edges; S and G (or the panel's
 * buttons) make the selected point the start or the goal. Points are in tile units.
 *
 * @module waypointedit
 */

import { MAX_COORD, MAX_EDGES, MAX_POINTS } from './maps/waypointgraph.js';
import { pointRadius } from './view/waypoints.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./maps/waypointgraph.js').WayPoint} WayPoint */

/** A press that moves less than this (CSS px) is a click, not a drag. */
const CLICK_PX = 4;

/**
 * Say something about the graph in the status line (an error keeps the graph as it was).
 * @param {AppState} app @param {string} text @param {boolean} [error]
 */
function say(app, text, error = false) {
  app.setStatus(error ? 'error' : app.engineState === 'ready' ? 'ready' : app.status.state, text, app.status.progress);
}

/**
 * The graph changed (or an undo step changed it): a new version, and a frame.
 * @param {AppState} app
 */
function changed(app) {
  app.model.waypoints.touch();
  app.emit('map', 'controls');
}

/**
 * Add a point at (x, y) tiles (one undo step); the first two points become the start and the goal.
 * @param {AppState} app @param {number} x @param {number} y
 * @returns {number | null} its id, or null when the graph is full
 */
export function addPoint(app, x, y) {
  const g = app.model.waypoints;
  if (!(Number.isFinite(x) && Number.isFinite(y) && Math.abs(x) <= MAX_COORD && Math.abs(y) <= MAX_COORD)) {
    say(app, `A point must lie within ${MAX_COORD.toExponential()} tiles of the corner.`, true);
    return null;
  }
  if (g.nodes.length >= MAX_POINTS) {
    say(app, `The graph holds ${MAX_POINTS.toLocaleString('en-US')} points, the most the lab keeps: remove some first.`, true);
    return null;
  }
  /** @type {WayPoint} */
  const node = { id: g.nextId++, x: round3(x), y: round3(y) };
  const ends = { start: g.start, goal: g.goal };
  const after = { start: g.start ?? node.id, goal: g.start === null ? g.goal : (g.goal ?? node.id) };
  const redo = () => {
    g.nodes.push({ ...node });
    g.start = after.start;
    g.goal = after.goal;
    g.selected = node.id;
    changed(app);
  };
  const undo = () => {
    g.nodes = g.nodes.filter((n) => n.id !== node.id);
    g.start = ends.start;
    g.goal = ends.goal;
    if (g.selected === node.id) g.selected = null;
    changed(app);
  };
  redo();
  app.model.record({ label: 'add a point', undo, redo });
  return node.id;
}

/** @param {number} v  tiles, kept to a thousandth (links and snapshots stay short) */
function round3(v) {
  return Math.round(v * 1000) / 1000;
}

/**
 * Link two points, or unlink them when linked (one undo step).
 * @param {AppState} app @param {number} a @param {number} b
 * @returns {boolean} whether anything changed
 */
export function toggleLink(app, a, b) {
  const g = app.model.waypoints;
  if (a === b || !g.node(a) || !g.node(b)) return false;
  const linked = g.edgeIndex(a, b) >= 0;
  if (!linked && g.edges.length >= MAX_EDGES) {
    say(app, `The graph holds ${MAX_EDGES.toLocaleString('en-US')} edges, the most the lab keeps.`, true);
    return false;
  }
  const link = () => {
    g.edges.push([a, b]);
    changed(app);
  };
  const unlink = () => {
    const i = g.edgeIndex(a, b);
    if (i >= 0) g.edges.splice(i, 1);
    changed(app);
  };
  if (linked) unlink();
  else link();
  app.model.record({ label: linked ? 'unlink two points' : 'link two points', undo: linked ? link : unlink, redo: linked ? unlink : link });
  return true;
}

/**
 * Remove a point and its edges (one undo step brings them back where they were).
 * @param {AppState} app @param {number} id
 * @returns {boolean}
 */
export function removePoint(app, id) {
  const g = app.model.waypoints;
  const index = g.nodes.findIndex((n) => n.id === id);
  if (index < 0) return false;
  const node = { ...g.nodes[index] };
  const before = { edges: g.edges.map((e) => /** @type {[number, number]} */ ([...e])), start: g.start, goal: g.goal };
  const redo = () => {
    g.nodes = g.nodes.filter((n) => n.id !== id);
    g.edges = g.edges.filter(([a, b]) => a !== id && b !== id);
    if (g.start === id) g.start = null;
    if (g.goal === id) g.goal = null;
    if (g.selected === id) g.selected = null;
    changed(app);
  };
  const undo = () => {
    g.nodes.splice(index, 0, { ...node });
    g.edges = before.edges.map((e) => /** @type {[number, number]} */ ([...e]));
    g.start = before.start;
    g.goal = before.goal;
    g.selected = id;
    changed(app);
  };
  redo();
  app.model.record({ label: 'remove a point', undo, redo });
  return true;
}

/**
 * Make a point the start or the goal (one undo step); the other end moves off it.
 * @param {AppState} app @param {'start' | 'goal'} which @param {number | null} id
 * @returns {boolean}
 */
export function setEnd(app, which, id) {
  const g = app.model.waypoints;
  if (id === null || !g.node(id)) {
    say(app, `Select a point first (click it), then make it the ${which}.`, true);
    return false;
  }
  if (g[which] === id) return false;
  const other = which === 'start' ? 'goal' : 'start';
  const before = { start: g.start, goal: g.goal };
  const after = { ...before, [which]: id, [other]: g[other] === id ? g[which] : g[other] };
  const put = (/** @type {typeof before} */ e) => {
    g.start = e.start;
    g.goal = e.goal;
    changed(app);
  };
  put(after);
  app.model.record({ label: `move the ${which}`, undo: () => put(before), redo: () => put(after) });
  return true;
}

/**
 * The pointer on a waypoint map (editor.js hands it the events when the map is a graph).
 */
export class WaypointPointer {
  /** @param {HTMLCanvasElement} canvas @param {AppState} app */
  constructor(canvas, app) {
    this.canvas = canvas;
    this.app = app;
    /** @type {null | {kind: 'move', id: number, from: [number, number], px: [number, number], moved: boolean}
     *   | {kind: 'link', from: number} | {kind: 'add', x: number, y: number, px: [number, number]}} */
    this.drag = null;
    window.addEventListener('keydown', (e) => this._key(e), true);
  }

  /**
   * A pointer in tile units.
   * @param {{clientX: number, clientY: number}} e
   * @returns {[number, number]}
   */
  point(e) {
    const r = this.canvas.getBoundingClientRect();
    const vp = this.app.viewport;
    return [(e.clientX - r.left - vp.ox) / vp.tileSize, (e.clientY - r.top - vp.oy) / vp.tileSize];
  }

  /** @param {{clientX: number, clientY: number}} e */
  _hit(e) {
    const [x, y] = this.point(e);
    const vp = this.app.viewport;
    return this.app.model.waypoints.pointAt(x, y, (pointRadius(vp.tileSize) + 4) / vp.tileSize);
  }

  /** @param {PointerEvent} e @returns {boolean} whether a drag began */
  down(e) {
    if (e.button !== 0) return false;
    const g = this.app.model.waypoints;
    const hit = this._hit(e);
    const px = /** @type {[number, number]} */ ([e.clientX, e.clientY]);
    if (hit && (e.shiftKey || g.tool === 'link')) {
      this.drag = { kind: 'link', from: hit.id };
      g.linking = { from: hit.id, x: hit.x, y: hit.y };
      g.selected = hit.id;
    } else if (hit) {
      this.drag = { kind: 'move', id: hit.id, from: [hit.x, hit.y], px, moved: false };
      g.selected = hit.id;
    } else {
      const [x, y] = this.point(e);
      this.drag = { kind: 'add', x, y, px };
    }
    this.app.emit('map', 'controls');
    return true;
  }

  /** @param {PointerEvent} e */
  move(e) {
    const d = this.drag;
    const g = this.app.model.waypoints;
    if (!d) return;
    const [x, y] = this.point(e);
    if (d.kind === 'link' && g.linking) {
      g.linking.x = x;
      g.linking.y = y;
      this.app.emit('map');
    } else if (d.kind === 'move') {
      if (!d.moved && Math.hypot(e.clientX - d.px[0], e.clientY - d.px[1]) < CLICK_PX) return;
      d.moved = true;
      const n = g.node(d.id);
      if (!n) return;
      n.x = round3(x);
      n.y = round3(y);
      changed(this.app);
    }
  }

  /** @param {PointerEvent} e */
  up(e) {
    const d = this.drag;
    this.drag = null;
    const g = this.app.model.waypoints;
    if (!d) return;
    if (d.kind === 'link') {
      g.linking = null;
      const hit = this._hit(e);
      if (hit && hit.id !== d.from) toggleLink(this.app, d.from, hit.id);
      this.app.emit('map');
    } else if (d.kind === 'move' && d.moved) {
      const n = g.node(d.id);
      if (!n) return;
      const to = /** @type {[number, number]} */ ([n.x, n.y]);
      const from = d.from;
      const put = (/** @type {[number, number]} */ p) => {
        const node = g.node(d.id);
        if (!node) return;
        node.x = p[0];
        node.y = p[1];
        changed(this.app);
      };
      this.app.model.record({ label: 'move a point', undo: () => put(from), redo: () => put(to) });
    } else if (d.kind === 'add' && Math.hypot(e.clientX - d.px[0], e.clientY - d.px[1]) < CLICK_PX) {
      addPoint(this.app, d.x, d.y);
    }
  }

  /** Drop the drag under way (a second finger, a lost pointer): a moved point goes back. */
  cancel() {
    const d = this.drag;
    this.drag = null;
    const g = this.app.model.waypoints;
    g.linking = null;
    if (d && d.kind === 'move' && d.moved) {
      const n = g.node(d.id);
      if (n) [n.x, n.y] = d.from;
      changed(this.app);
    }
  }

  /**
   * Delete, S and G on a waypoint map (before the page's own keys, which would erase tiles).
   * @param {KeyboardEvent} e
   */
  _key(e) {
    if (this.app.model.kind !== 'waypoints' || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = /** @type {HTMLElement | null} */ (e.target);
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
    const g = this.app.model.waypoints;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (key === 'Delete' || key === 'Backspace') {
      if (g.selected !== null) removePoint(this.app, g.selected);
    } else if (key === 's' || key === 'g') {
      setEnd(this.app, key === 's' ? 'start' : 'goal', g.selected);
    } else if (key === 'Escape' && g.selected !== null) {
      g.selected = null;
      this.app.emit('map');
    } else return;
    e.preventDefault();
    e.stopImmediatePropagation();
  }
}
