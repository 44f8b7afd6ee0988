// @ts-check
/**
 * Mouse tools on the map canvas.
 *
 * - Left drag paints walls (or erases, with the Erase tool), with a square
 *   brush of 1, 2 or 3 tiles; right drag always erases.
 * - Dragging the start or the goal marker moves it (onto open tiles only).
 * - A whole drag is one undo step.
 * - The hovered tile is reported for the coordinates readout.
 *
 * @module editor
 */

import { TERRAIN } from './maps.js';

/** @typedef {import('./state.js').MapModel} MapModel */
/** @typedef {import('./render.js').Renderer} Renderer */
/** @typedef {'paint' | 'erase'} Tool */

export class Editor {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {MapModel} model
   * @param {Renderer} renderer
   * @param {{onHover?: (tile: [number, number] | null) => void, onEdit?: () => void}} [hooks]
   */
  constructor(canvas, model, renderer, hooks = {}) {
    this.canvas = canvas;
    this.model = model;
    this.renderer = renderer;
    this.hooks = hooks;
    /** @type {Tool} */
    this.tool = 'paint';
    this.brush = 1;
    /** @type {null | {kind: 'paint', code: number, last: [number, number]} | {kind: 'marker', which: 'start' | 'goal'}} */
    this.drag = null;
    /** @type {number | null} */
    this.pointerId = null;

    canvas.addEventListener('pointerdown', (e) => this._down(e));
    canvas.addEventListener('pointermove', (e) => this._move(e));
    canvas.addEventListener('pointerup', (e) => this._up(e));
    canvas.addEventListener('pointercancel', (e) => this._up(e));
    canvas.addEventListener('lostpointercapture', (e) => this._up(e));
    canvas.addEventListener('pointerleave', () => {
      if (!this.drag) this._hover(null);
    });
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  /** @param {Tool} tool */
  setTool(tool) {
    this.tool = tool;
    this.canvas.dataset.tool = tool;
  }

  /** @param {number} n */
  setBrush(n) {
    this.brush = Math.max(1, Math.min(5, Math.round(n)));
    this.renderer.brush = this.brush;
  }

  /** @param {[number, number] | null} tile */
  _hover(tile) {
    const inside = tile && this.model.inBounds(tile[0], tile[1]) ? tile : null;
    this.renderer.hover = inside;
    if (this.hooks.onHover) this.hooks.onHover(inside);
  }

  /** @param {PointerEvent} e */
  _down(e) {
    if (this.drag) return;
    if (e.button !== 0 && e.button !== 2) return;
    e.preventDefault();
    this.canvas.focus({ preventScroll: true });
    const tile = this.renderer.tileAt(e.clientX, e.clientY);
    const [x, y] = tile;
    if (!this.model.inBounds(x, y)) return;
    const m = this.model;
    if (e.button === 0 && (m.start[0] === x && m.start[1] === y)) {
      this.drag = { kind: 'marker', which: 'start' };
      m.beginStroke('move start');
    } else if (e.button === 0 && (m.goal[0] === x && m.goal[1] === y)) {
      this.drag = { kind: 'marker', which: 'goal' };
      m.beginStroke('move goal');
    } else {
      const erase = e.button === 2 || this.tool === 'erase' || e.shiftKey;
      const code = erase ? TERRAIN.OPEN : TERRAIN.WALL;
      this.drag = { kind: 'paint', code, last: tile };
      m.beginStroke(erase ? 'erase walls' : 'paint walls');
      this._stamp([tile], code);
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
    const tile = this.renderer.tileAt(e.clientX, e.clientY);
    this._hover(tile);
    const d = this.drag;
    if (!d || (this.pointerId !== null && e.pointerId !== this.pointerId)) return;
    if (d.kind === 'marker') {
      const [x, y] = tile;
      if (this.model.inBounds(x, y)) this.model.moveMarker(d.which, tile);
      return;
    }
    if (tile[0] === d.last[0] && tile[1] === d.last[1]) return;
    // Fill the tiles between two pointer events, so fast drags leave no gaps.
    this._stamp(lineTiles(d.last, tile), d.code);
    d.last = tile;
  }

  /** @param {PointerEvent} e */
  _up(e) {
    if (!this.drag || (this.pointerId !== null && e.pointerId !== this.pointerId)) return;
    this.drag = null;
    this.pointerId = null;
    delete this.canvas.dataset.dragging;
    this.model.endStroke();
    if (this.hooks.onEdit) this.hooks.onEdit();
  }

  /**
   * Paint the brush at each tile.
   * @param {Array<[number, number]>} centres
   * @param {number} code
   */
  _stamp(centres, code) {
    const b = this.brush;
    const off = Math.floor((b - 1) / 2);
    /** @type {Array<[number, number]>} */
    const tiles = [];
    for (const [cx, cy] of centres) {
      for (let dy = 0; dy < b; dy++) for (let dx = 0; dx < b; dx++) tiles.push([cx - off + dx, cy - off + dy]);
    }
    this.model.paint(tiles, code);
  }
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
