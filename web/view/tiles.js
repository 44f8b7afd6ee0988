// @ts-check
/**
 * Drawing what lies on tiles: the terrain and the explored tiles as one-pixel-per-tile images
 * (scaled up without smoothing, so a 1024x1024 map draws as fast as a small one), the grid, the
 * tile expanded last, and Lester's view: from `LESTER_TILE_PX` up each visited tile outlined light
 * green (open) or light blue (closed), F top left, G bottom left, H bottom right, and a grey
 * pointer from its centre toward its parent. Coordinates are tile units scaled by `ts` CSS px,
 * with the map's corner at the context's origin.
 *
 * @module view/tiles
 */

import { COLORS, rgba, terrainRgb } from './colors.js';

/**
 * The explored tiles of a search: one byte per tile, row-major (y * width + x):
 * 0 unseen, 1 on the open list, 2 closed.
 * @typedef {Uint8Array} Overlay
 */

/**
 * What Lester's view needs per tile (flat index y * width + x): G, H and the parent's flat index
 * (-1 for the start), for the tiles the overlay marks seen.
 * @typedef {{g: Float64Array, h: Float64Array, parent: Int32Array}} Scores
 */

/**
 * What was drawn in a tile in Lester's view (the text as shown).
 * @typedef {{f: string, g: string, h: string, list: 'open' | 'closed', parent: [number, number] | null}} DrawnTile
 */

/** @typedef {[number, number, number, number]} TileRange  [x0, y0, x1, y1): the tiles in view */

/**
 * The terrain and overlay images, repainted only when what they show changed.
 */
export class TileImages {
  constructor() {
    this.terrain = document.createElement('canvas');
    this.overlay = document.createElement('canvas');
    /** @type {{cells: Uint8Array, version: number} | null} what the terrain image shows */
    this.terrainOf = null;
    /** @type {{explored: Overlay | null, step: number, size: number} | null} what the overlay shows */
    this.overlayOf = null;
  }

  /**
   * The terrain image of a map (one pixel a tile).
   * @param {{width: number, height: number, cells: Uint8Array, version: number}} map
   * @param {ReadonlyArray<{code: number, name: string}>} terrains
   */
  terrainImage(map, terrains) {
    const shown = this.terrainOf;
    if (shown && shown.cells === map.cells && shown.version === map.version) return this.terrain;
    fitCanvas(this.terrain, map.width, map.height);
    const ctx = /** @type {CanvasRenderingContext2D} */ (this.terrain.getContext('2d'));
    const img = ctx.createImageData(map.width, map.height);
    const px = new Uint32Array(img.data.buffer);
    const table = new Uint32Array(256).fill(rgba(COLORS.unknownTerrain));
    for (const t of terrains) table[t.code] = rgba(terrainRgb(t.name));
    const cells = map.cells;
    for (let i = 0; i < cells.length; i++) px[i] = table[cells[i]];
    ctx.putImageData(img, 0, 0);
    this.terrainOf = { cells, version: map.version };
    return this.terrain;
  }

  /**
   * The explored tiles as an image: closed blue, open green.
   * @param {number} width
   * @param {number} height
   * @param {Overlay | null} explored
   * @param {number} step  the replay's position (the array changes in place as it moves), or -1
   */
  overlayImage(width, height, explored, step) {
    const shown = this.overlayOf;
    const size = width * height;
    if (shown && shown.explored === explored && shown.step === step && shown.size === size) return this.overlay;
    fitCanvas(this.overlay, width, height);
    const ctx = /** @type {CanvasRenderingContext2D} */ (this.overlay.getContext('2d'));
    ctx.clearRect(0, 0, width, height);
    if (explored) {
      const img = ctx.createImageData(width, height);
      const px = new Uint32Array(img.data.buffer);
      const closed = rgba(COLORS.closed);
      const open = rgba(COLORS.openList);
      const m = Math.min(px.length, explored.length);
      for (let i = 0; i < m; i++) {
        const v = explored[i];
        if (v === 2) px[i] = closed;
        else if (v === 1) px[i] = open;
      }
      ctx.putImageData(img, 0, 0);
    }
    this.overlayOf = { explored, step, size };
    return this.overlay;
  }
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {number} width
 * @param {number} height
 */
function fitCanvas(canvas, width, height) {
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
}

/**
 * Grid lines between the tiles in view, on whole device-independent pixels.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {TileRange} range
 * @param {{width: number, height: number, ox: number, oy: number}} view
 */
export function drawGrid(ctx, ts, range, view) {
  const [x0, y0, x1, y1] = range;
  ctx.strokeStyle = COLORS.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  // offset by half a pixel to stay crisp
  const fx = view.ox - Math.round(view.ox);
  const fy = view.oy - Math.round(view.oy);
  for (let x = Math.max(1, x0); x < Math.min(view.width, x1 + 1); x++) {
    const px = Math.round(x * ts) + 0.5 - fx;
    ctx.moveTo(px, y0 * ts);
    ctx.lineTo(px, y1 * ts);
  }
  for (let y = Math.max(1, y0); y < Math.min(view.height, y1 + 1); y++) {
    const py = Math.round(y * ts) + 0.5 - fy;
    ctx.moveTo(x0 * ts, py);
    ctx.lineTo(x1 * ts, py);
  }
  ctx.stroke();
}

/**
 * Outline the tile expanded last.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {number} i  its flat index
 * @param {number} width  the map's width
 */
export function drawCurrentTile(ctx, ts, i, width) {
  const x = i % width;
  const y = Math.floor(i / width);
  ctx.save();
  ctx.strokeStyle = COLORS.current;
  ctx.lineWidth = Math.max(1.5, Math.min(4, ts * 0.08));
  const o = ctx.lineWidth / 2;
  ctx.strokeRect(x * ts + o, y * ts + o, Math.max(1, ts - 2 * o), Math.max(1, ts - 2 * o));
  ctx.restore();
}

/** @param {number} px */
const scoreFont = (px) => `600 ${px.toFixed(1)}px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace`;

/**
 * Lester's view of the visible tiles; records the text drawn in each tile in `drawn`.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {TileRange} range
 * @param {{width: number, explored: Overlay, scores: Scores, format: (v: number) => string, stale: boolean}} search
 * @param {Map<number, DrawnTile>} drawn
 */
export function drawLester(ctx, ts, range, search, drawn) {
  const [x0, y0, x1, y1] = range;
  const { width: W, explored, scores, format } = search;
  const edge = Math.max(2, ts * 0.055);
  const inset = edge / 2 + 1.5;
  const pad = Math.max(2, ts * 0.06);
  const fontPx = Math.max(8, Math.min(16, ts * 0.2));
  ctx.save();
  ctx.globalAlpha = search.stale ? 0.45 : 1;
  ctx.lineJoin = 'round';
  ctx.textBaseline = 'alphabetic';
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * W + x;
      const list = explored[i];
      if (list !== 1 && list !== 2) continue;
      const g = scores.g[i];
      const h = scores.h[i];
      if (!Number.isFinite(g)) continue;
      const left = x * ts;
      const top = y * ts;
      // the outline: light green open, light blue closed
      ctx.strokeStyle = list === 2 ? COLORS.closedEdge : COLORS.openEdge;
      ctx.lineWidth = edge;
      ctx.strokeRect(left + inset, top + inset, ts - 2 * inset, ts - 2 * inset);
      // the scores: F top left, G bottom left, H bottom right
      const fText = format(g + (Number.isFinite(h) ? h : 0));
      const gText = format(g);
      const hText = Number.isFinite(h) ? format(h) : '?';
      let px = fontPx;
      ctx.font = scoreFont(px);
      const widest = Math.max(ctx.measureText(gText).width + ctx.measureText(hText).width, ctx.measureText(fText).width);
      const room = ts - 2 * (inset + pad) - 2;
      if (widest > room) {
        px = Math.max(6, (px * room) / widest);
        ctx.font = scoreFont(px);
      }
      ctx.lineWidth = 3;
      ctx.strokeStyle = COLORS.scoreShadow;
      ctx.fillStyle = COLORS.score;
      const l = left + inset + pad;
      const r = left + ts - inset - pad;
      const b = top + ts - inset - pad;
      const t = top + inset + pad + px * 0.8;
      ctx.textAlign = 'left';
      ctx.strokeText(fText, l, t);
      ctx.fillText(fText, l, t);
      ctx.strokeText(gText, l, b);
      ctx.fillText(gText, l, b);
      ctx.textAlign = 'right';
      ctx.strokeText(hText, r, b);
      ctx.fillText(hText, r, b);
      const p = scores.parent[i];
      /** @type {[number, number] | null} */
      const parent = p >= 0 ? [p % W, Math.floor(p / W)] : null;
      if (parent) drawPointer(ctx, ts, x, y, parent[0], parent[1]);
      drawn.set(i, { f: fText, g: gText, h: hText, list: list === 2 ? 'closed' : 'open', parent });
    }
  }
  ctx.restore();
}

/**
 * Lester's grey pointer: from the centre of tile (x, y) toward its parent (px, py).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {number} x @param {number} y @param {number} px @param {number} py
 */
function drawPointer(ctx, ts, x, y, px, py) {
  let dx = px - x;
  let dy = py - y;
  const len = Math.hypot(dx, dy) || 1;
  dx /= len;
  dy /= len;
  const cx = (x + 0.5) * ts;
  const cy = (y + 0.5) * ts;
  const tip = ts * 0.3;
  const head = Math.max(4, ts * 0.1);
  const tx = cx + dx * tip;
  const ty = cy + dy * tip;
  ctx.strokeStyle = COLORS.pointer;
  ctx.fillStyle = COLORS.pointer;
  ctx.lineWidth = Math.max(1.5, ts * 0.035);
  ctx.beginPath();
  ctx.arc(cx, cy, Math.max(1.5, ts * 0.035), 0, Math.PI * 2);
  ctx.fill();
  ctx.beginPath();
  ctx.moveTo(cx, cy);
  ctx.lineTo(tx - dx * head * 0.6, ty - dy * head * 0.6);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(tx, ty);
  ctx.lineTo(tx - dx * head - dy * head * 0.55, ty - dy * head + dx * head * 0.55);
  ctx.lineTo(tx - dx * head + dy * head * 0.55, ty - dy * head - dx * head * 0.55);
  ctx.closePath();
  ctx.fill();
}
