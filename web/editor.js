// @ts-check
/**
 * Mouse tools on the map canvas.
 *
 * - Left drag paints the chosen terrain (or ground, with the Erase tool), with
 *   a square brush of 1, 2, 3 or 5 tiles; right drag always paints ground.
 * - Dragging the start or the goal marker moves it (onto passable tiles only); dragging the knob
 *   of its arrow turns it (Shift: in steps of 45 degrees), and so does the wheel over it.
 * - A whole drag is one undo step.
 * - Middle drag, or a left drag while Space is held, pans the view; the mouse
 *   wheel zooms around the pointer.
 * - The hovered tile goes to the app state (the readout and the brush outline show it).
 * - Touch (touch.js): one finger does what the left button does, two fingers pinch and pan; a
 *   second finger cancels the first one's stroke (`cancel`).
 * - On a hex map the same tools work on hexes (the pointer's hex by cube rounding, a hex brush,
 *   strokes along hex lines); on a waypoint graph the left button goes to waypointedit.js.
 *
 * @module editor
 */

import { KEY_STEP_DEG, WHEEL_STEP_DEG, headingDeg, normalDeg, rotateHeading, setHeading } from './headings.js';
import { hexCellAt, hexDisc, hexLine } from './maps/hexgeom.js';
import { TouchGestures } from './touch.js';
import { hexBrushRadius } from './view/hex.js';
import { headingHandle } from './view/paths.js';
import { WaypointPointer } from './waypointedit.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {'start' | 'goal'} Which */
/** @type {readonly Which[]} */
const MARKERS = Object.freeze(['start', 'goal']);

/**
 * The mouse on the map: it edits the app state's model and moves its viewport; the tool, brush
 * and terrain come from the state (the terrain panel sets them).
 */
export class Editor {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {AppState} app
   */
  constructor(canvas, app) {
    this.canvas = canvas;
    this.app = app;
    /** @type {null | {kind: 'paint', code: number, last: [number, number]} | {kind: 'marker', which: Which}
     *   | {kind: 'heading', which: Which, before: string} | {kind: 'pan', x: number, y: number} | {kind: 'points'}} the drag
     *   under way (points: on a waypoint graph, waypointedit.js's) */
    this.drag = null;
    /** @type {number | null} */
    this.pointerId = null;
    /** the left button on a waypoint graph */
    this.points = new WaypointPointer(canvas, app);

    canvas.addEventListener('pointerdown', (e) => this._down(e));
    canvas.addEventListener('pointermove', (e) => this._move(e));
    canvas.addEventListener('pointerup', (e) => this._up(e));
    canvas.addEventListener('pointercancel', (e) => this._up(e));
    canvas.addEventListener('lostpointercapture', (e) => this._up(e));
    canvas.addEventListener('pointerleave', () => {
      if (!this.drag) this._hover(null);
    });
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());
    canvas.addEventListener('wheel', (e) => this._wheel(e), { passive: false });
    // a middle click must not start the browser's autoscroll
    canvas.addEventListener('mousedown', (e) => {
      if (e.button === 1) e.preventDefault();
    });
    new TouchGestures(canvas, app, () => this.cancel());
  }

  /**
   * Drop the drag under way as if it never began: a stroke's tiles and a marker's move are
   * taken back (no undo step is left), a heading goes back to what it was.
   */
  cancel() {
    const d = this.drag;
    if (!d) return;
    const id = this.pointerId;
    this.drag = null;
    this.pointerId = null;
    delete this.canvas.dataset.dragging;
    if (id !== null && this.canvas.hasPointerCapture(id)) this.canvas.releasePointerCapture(id);
    if (d.kind === 'points') this.points.cancel();
    else if (d.kind === 'paint' || d.kind === 'marker') this.app.model.cancelStroke();
    else if (d.kind === 'heading') {
      this.app.unitInput[d.which === 'start' ? 'start_heading' : 'goal_heading'] = d.before;
      this.app.emit('unit', 'view');
    }
  }

  /**
   * The tile under a pointer (may be outside the map).
   * @param {{clientX: number, clientY: number}} e
   */
  _tileAt(e) {
    const vp = this.app.viewport;
    const m = this.app.model;
    if (m.kind === 'hex') {
      const r = this.canvas.getBoundingClientRect();
      return hexCellAt((e.clientX - r.left - vp.ox) / vp.tileSize, (e.clientY - r.top - vp.oy) / vp.tileSize, m.orientation);
    }
    return vp.tileAt(this.canvas.getBoundingClientRect(), e.clientX, e.clientY);
  }

  /**
   * A pointer in the map's CSS pixels (the map's corner at 0, 0).
   * @param {{clientX: number, clientY: number}} e
   */
  _mapPx(e) {
    const r = this.canvas.getBoundingClientRect();
    const vp = this.app.viewport;
    return [e.clientX - r.left - vp.ox, e.clientY - r.top - vp.oy];
  }

  /**
   * The marker whose heading knob is under a pointer, if any.
   * @param {{clientX: number, clientY: number}} e
   * @returns {Which | null}
   */
  _knobAt(e) {
    if (this.app.model.kind !== 'squares') return null; // headings are for squares
    const [px, py] = this._mapPx(e);
    const ts = this.app.viewport.tileSize;
    for (const which of MARKERS) {
      const deg = headingDeg(this.app, which);
      const h = headingHandle(ts, this.app.model[which], deg === null ? null : (deg * Math.PI) / 180);
      if (h && Math.hypot(px - h.x, py - h.y) <= h.hit) return which;
    }
    return null;
  }

  /** @param {WheelEvent} e */
  _wheel(e) {
    e.preventDefault();
    const [tx, ty] = this._tileAt(e);
    const over = MARKERS.find((w) => this.app.model[w][0] === tx && this.app.model[w][1] === ty);
    if (over && e.deltaY !== 0 && !e.ctrlKey && this.app.model.kind === 'squares') {
      // The wheel over a marker turns it (down: clockwise on the screen); notches close together are one undo step.
      rotateHeading(this.app, over, e.deltaY > 0 ? WHEEL_STEP_DEG : -WHEEL_STEP_DEG, { join: true });
      return;
    }
    const r = this.canvas.getBoundingClientRect();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const dy = Math.max(-300, Math.min(300, e.deltaY * unit));
    this.app.viewport.zoomBy(Math.exp(-dy * 0.002), e.clientX - r.left, e.clientY - r.top);
    this.app.emit('view');
    this._hover(this._tileAt(e));
  }

  /** @param {[number, number] | null} tile */
  _hover(tile) {
    // (a waypoint graph has no tiles to point at)
    this.app.hover = tile && this.app.model.kind !== 'waypoints' && this.app.model.inBounds(tile[0], tile[1]) ? tile : null;
    this.app.emit('hover');
  }

  /** @param {PointerEvent} e */
  _down(e) {
    if (this.drag) return;
    if (e.button !== 0 && e.button !== 1 && e.button !== 2) return;
    e.preventDefault();
    this.canvas.focus({ preventScroll: true });
    const tile = this._tileAt(e);
    const [x, y] = tile;
    const { model: m, paint, space } = this.app;
    if (e.button === 1 || (e.button === 0 && space.held)) {
      this.drag = { kind: 'pan', x: e.clientX, y: e.clientY };
      if (space.held) space.panned = true;
    } else if (m.kind === 'waypoints') {
      if (!this.points.down(e)) return;
      this.drag = { kind: 'points' };
    } else if (e.button === 0 && this._knobAt(e)) {
      const which = /** @type {Which} */ (this._knobAt(e));
      const key = which === 'start' ? 'start_heading' : 'goal_heading';
      this.drag = { kind: 'heading', which, before: this.app.unitInput[key] };
      this.app.markerFocus = which;
      this.app.emit('view');
    } else if (!m.inBounds(x, y)) {
      return;
    } else if (e.button === 0 && m.start[0] === x && m.start[1] === y) {
      this.drag = { kind: 'marker', which: 'start' };
      this.app.markerFocus = 'start';
      m.beginStroke('move start');
    } else if (e.button === 0 && m.goal[0] === x && m.goal[1] === y) {
      this.drag = { kind: 'marker', which: 'goal' };
      this.app.markerFocus = 'goal';
      m.beginStroke('move goal');
    } else {
      const erase = e.button === 2 || paint.tool === 'erase' || e.shiftKey;
      const code = erase ? m.ground : paint.code;
      this.drag = { kind: 'paint', code, last: tile };
      m.beginStroke(strokeLabel(this.app, code));
      stamp(this.app, [tile], code);
    }
    this.pointerId = e.pointerId;
    try {
      this.canvas.setPointerCapture(e.pointerId);
    } catch {
      /* synthetic events may have no capturable pointer */
    }
    this.canvas.dataset.dragging = this.drag.kind;
    this._hover(tile);
  }

  /** @param {PointerEvent} e */
  _move(e) {
    const tile = this._tileAt(e);
    this._hover(tile);
    const d = this.drag;
    if (!d || (this.pointerId !== null && e.pointerId !== this.pointerId)) return;
    if (d.kind === 'points') {
      this.points.move(e);
      return;
    }
    if (d.kind === 'pan') {
      this.app.viewport.panBy(e.clientX - d.x, e.clientY - d.y);
      d.x = e.clientX;
      d.y = e.clientY;
      this.app.emit('view');
      return;
    }
    if (d.kind === 'heading') {
      const [px, py] = this._mapPx(e);
      const ts = this.app.viewport.tileSize;
      const [mx, my] = this.app.model[d.which];
      const raw = (Math.atan2(py - (my + 0.5) * ts, px - (mx + 0.5) * ts) * 180) / Math.PI;
      const deg = e.shiftKey ? Math.round(raw / KEY_STEP_DEG) * KEY_STEP_DEG : Math.round(raw);
      // Shown while dragging; one undo step when released.
      this.app.unitInput[d.which === 'start' ? 'start_heading' : 'goal_heading'] = String(normalDeg(deg));
      this.app.emit('unit', 'view');
      return;
    }
    if (d.kind === 'marker') {
      const [x, y] = tile;
      if (this.app.model.inBounds(x, y)) this.app.model.moveMarker(d.which, tile);
      return;
    }
    if (tile[0] === d.last[0] && tile[1] === d.last[1]) return;
    // Fill the tiles between two pointer events, so fast drags leave no gaps.
    const m = this.app.model;
    stamp(this.app, m.kind === 'hex' ? hexLine(d.last, tile, m.orientation) : lineTiles(d.last, tile), d.code);
    d.last = tile;
  }

  /** @param {PointerEvent} e */
  _up(e) {
    if (!this.drag || (this.pointerId !== null && e.pointerId !== this.pointerId)) return;
    const d = this.drag;
    const kind = d.kind;
    this.drag = null;
    this.pointerId = null;
    delete this.canvas.dataset.dragging;
    if (kind === 'pan') return;
    if (d.kind === 'points') {
      this.points.up(e);
      return;
    }
    if (d.kind === 'heading') {
      const which = d.which;
      const key = which === 'start' ? 'start_heading' : 'goal_heading';
      const after = headingDeg(this.app, which);
      this.app.unitInput[key] = d.before;
      setHeading(this.app, which, after, { label: `turn the ${which}` });
      return;
    }
    this.app.model.endStroke();
  }
}

/**
 * The tiles the brush covers when centred on tile (x, y): a square of the brush's side, the
 * extra tile of an even side to the right and below.
 * @param {AppState} app
 * @param {number} x
 * @param {number} y
 * @returns {[number, number, number]} its top-left tile and its side
 */
export function brushSquare(app, x, y) {
  const b = app.paint.brush;
  const off = Math.floor((b - 1) / 2);
  return [x - off, y - off, b];
}

/**
 * Paint the brush at each tile (the mouse's drag and the keyboard cursor alike).
 * @param {AppState} app
 * @param {Array<[number, number]>} centres
 * @param {number} code
 */
export function stamp(app, centres, code) {
  /** @type {Array<[number, number]>} */
  const tiles = [];
  const m = app.model;
  if (m.kind === 'hex') {
    // hexes within the brush's radius of each centre
    for (const c of centres) tiles.push(...hexDisc(c, hexBrushRadius(app.paint.brush), m.orientation));
    app.model.paint(tiles, code);
    return;
  }
  for (const [cx, cy] of centres) {
    const [x0, y0, b] = brushSquare(app, cx, cy);
    for (let dy = 0; dy < b; dy++) for (let dx = 0; dx < b; dx++) tiles.push([x0 + dx, y0 + dy]);
  }
  app.model.paint(tiles, code);
}

/**
 * The undo step's name for a stroke of this terrain (ground: an erase).
 * @param {AppState} app
 * @param {number} code
 */
export function strokeLabel(app, code) {
  const m = app.model;
  return code === m.ground ? 'erase' : code === m.wall ? 'paint walls' : `paint ${app.terrainName(code)}`;
}

/**
 * The tiles on a line between two tiles, both ends included (Bresenham),
 * 4-connected so a painted stroke is a wall units cannot slip through diagonally.
 *
 * @param {[number, number]} a
 * @param {[number, number]} b
 * @returns {Array<[number, number]>}
 */
export function lineTiles(a, b) {
  let [x, y] = a;
  const dx = Math.abs(b[0] - x);
  const dy = Math.abs(b[1] - y);
  const sx = b[0] > x ? 1 : -1;
  const sy = b[1] > y ? 1 : -1;
  /** @type {Array<[number, number]>} */
  const out = [[x, y]];
  for (let ix = 0, iy = 0; ix < dx || iy < dy; ) {
    // Step along the axis whose next tile boundary the line crosses first.
    if ((1 + 2 * ix) * dy < (1 + 2 * iy) * dx) {
      x += sx;
      ix++;
    } else {
      y += sy;
      iy++;
    }
    out.push([x, y]);
  }
  return out;
}
