// @ts-check
/**
 * The canvas renderer: terrain tiles, the explored overlay (closed and open
 * lists), the path, the start and goal markers, the unit, the grid and the
 * hovered tile.
 *
 * Tile (x, y) covers [x, x+1) x [y, y+1) in tile units; a tile is `tileSize`
 * CSS pixels wide on screen. Terrain and overlay are kept as one-pixel-per-tile
 * images and scaled up without smoothing, so a 1024x1024 map draws as fast as
 * a small one.
 *
 * @module render
 */

import { TERRAIN } from './maps.js';

/** Colours, also used by the legend in index.html (keep in step with style.css). */
export const COLORS = Object.freeze({
  background: '#0f1318',
  open: [32, 38, 46], // open ground
  wall: [104, 116, 134], // walls
  closed: [64, 120, 230, 150], // closed list (expanded), blue like Lester's figures
  openList: [70, 200, 110, 170], // open list (frontier), green
  grid: 'rgba(255,255,255,0.07)',
  path: '#ffb347',
  start: '#3ddc84',
  goal: '#ff5c5c',
  unit: '#f5f7fa',
  unitEdge: '#0f1318',
  hover: 'rgba(255,255,255,0.55)',
});

/**
 * The explored tiles of a search: one byte per tile, row-major (y * width + x):
 * 0 unseen, 1 on the open list, 2 closed.
 * @typedef {Uint8Array} Overlay
 */

export class Renderer {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {HTMLElement} frame  the element whose size the canvas fits
   */
  constructor(canvas, frame) {
    this.canvas = canvas;
    this.frame = frame;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('This browser has no 2D canvas');
    this.ctx = ctx;
    /** CSS pixels per tile */
    this.tileSize = 16;
    this.width = 0;
    this.height = 0;
    this.terrain = document.createElement('canvas');
    this.overlay = document.createElement('canvas');
    /** @type {Uint8Array | null} */
    this.cells = null;
    this.terrainDirty = true;
    /** @type {Overlay | null} */
    this.explored = null;
    this.overlayDirty = true;
    /** @type {Array<[number, number]> | null} */
    this.path = null;
    /** The drawn result is for an older map (drawn dimmed). */
    this.stale = false;
    /** @type {[number, number] | null} */
    this.start = null;
    /** @type {[number, number] | null} */
    this.goal = null;
    /** @type {[number, number] | null} */
    this.hover = null;
    /** @type {{x: number, y: number, heading: number} | null} */
    this.unit = null;
    this.showGrid = true;
    this.brush = 1;
  }

  /**
   * Use a (new) map: size and terrain.
   * @param {number} width
   * @param {number} height
   * @param {Uint8Array} cells
   */
  setMap(width, height, cells) {
    const resized = width !== this.width || height !== this.height;
    this.width = width;
    this.height = height;
    this.cells = cells;
    this.terrainDirty = true;
    if (resized) {
      this.terrain.width = width;
      this.terrain.height = height;
      this.overlay.width = width;
      this.overlay.height = height;
      this.explored = null;
      this.path = null;
      this.overlayDirty = true;
      this.fit();
    }
  }

  /** The terrain changed. */
  invalidateTerrain() {
    this.terrainDirty = true;
  }

  /**
   * Show (or clear) a search result.
   * @param {Overlay | null} explored
   * @param {Array<[number, number]> | null} path
   */
  setResult(explored, path) {
    this.explored = explored;
    this.path = path && path.length ? path : null;
    this.stale = false;
    this.overlayDirty = true;
  }

  /** Size the canvas to its frame, keeping tiles square. */
  fit() {
    if (!this.width || !this.height) return;
    const rect = this.frame.getBoundingClientRect();
    const availW = Math.max(120, rect.width);
    const top = Math.max(0, rect.top);
    const availH = Math.max(200, window.innerHeight - top - 16);
    let ts = Math.min(availW / this.width, availH / this.height);
    if (ts >= 3) ts = Math.floor(ts);
    ts = Math.min(ts, 40);
    this.tileSize = ts;
    const cssW = Math.round(this.width * ts);
    const cssH = Math.round(this.height * ts);
    const dpr = window.devicePixelRatio || 1;
    this.canvas.style.width = `${cssW}px`;
    this.canvas.style.height = `${cssH}px`;
    this.canvas.width = Math.round(cssW * dpr);
    this.canvas.height = Math.round(cssH * dpr);
    this.dpr = dpr;
  }

  /**
   * The tile under a mouse position (may be outside the map).
   * @param {number} clientX
   * @param {number} clientY
   * @returns {[number, number]}
   */
  tileAt(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    const sx = this.width / r.width;
    const sy = this.height / r.height;
    return [Math.floor((clientX - r.left) * sx), Math.floor((clientY - r.top) * sy)];
  }

  _paintTerrain() {
    if (!this.cells) return;
    const tctx = this.terrain.getContext('2d');
    if (!tctx) return;
    const img = tctx.createImageData(this.width, this.height);
    const px = new Uint32Array(img.data.buffer);
    const open = rgba(COLORS.open);
    const wall = rgba(COLORS.wall);
    const cells = this.cells;
    for (let i = 0; i < cells.length; i++) px[i] = cells[i] === TERRAIN.OPEN ? open : wall;
    tctx.putImageData(img, 0, 0);
    this.terrainDirty = false;
  }

  _paintOverlay() {
    const octx = this.overlay.getContext('2d');
    if (!octx) return;
    octx.clearRect(0, 0, this.width, this.height);
    this.overlayDirty = false;
    if (!this.explored) return;
    const img = octx.createImageData(this.width, this.height);
    const px = new Uint32Array(img.data.buffer);
    const closed = rgba(COLORS.closed);
    const open = rgba(COLORS.openList);
    const n = px.length;
    const mask = this.explored;
    const m = Math.min(n, mask.length);
    for (let i = 0; i < m; i++) {
      const v = mask[i];
      if (v === 2) px[i] = closed;
      else if (v === 1) px[i] = open;
    }
    octx.putImageData(img, 0, 0);
  }

  /** Draw a frame. */
  draw() {
    if (this.terrainDirty) this._paintTerrain();
    if (this.overlayDirty) this._paintOverlay();
    const { ctx, tileSize: ts } = this;
    const dpr = this.dpr || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const W = this.width * ts;
    const H = this.height * ts;
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, W, H);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.terrain, 0, 0, W, H);
    if (this.explored) {
      ctx.globalAlpha = this.stale ? 0.35 : 1;
      ctx.drawImage(this.overlay, 0, 0, W, H);
      ctx.globalAlpha = 1;
    }
    if (this.showGrid && ts >= 8) this._grid(W, H);
    if (this.path) this._path();
    if (this.start) this._marker(this.start, COLORS.start, 'S');
    if (this.goal) this._marker(this.goal, COLORS.goal, 'G');
    if (this.unit) this._unit(this.unit);
    if (this.hover) this._hover(this.hover);
  }

  /** @param {number} W @param {number} H */
  _grid(W, H) {
    const { ctx, tileSize: ts } = this;
    ctx.strokeStyle = COLORS.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = 1; x < this.width; x++) {
      const px = Math.round(x * ts) + 0.5;
      ctx.moveTo(px, 0);
      ctx.lineTo(px, H);
    }
    for (let y = 1; y < this.height; y++) {
      const py = Math.round(y * ts) + 0.5;
      ctx.moveTo(0, py);
      ctx.lineTo(W, py);
    }
    ctx.stroke();
  }

  _path() {
    const { ctx, tileSize: ts } = this;
    const path = /** @type {Array<[number, number]>} */ (this.path);
    ctx.save();
    ctx.globalAlpha = this.stale ? 0.45 : 1;
    ctx.strokeStyle = COLORS.path;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.lineWidth = Math.max(1.5, Math.min(4, ts * 0.18));
    if (this.stale) ctx.setLineDash([ts * 0.4 + 2, ts * 0.3 + 2]);
    ctx.beginPath();
    path.forEach(([x, y], k) => {
      const px = (x + 0.5) * ts;
      const py = (y + 0.5) * ts;
      if (k === 0) ctx.moveTo(px, py);
      else ctx.lineTo(px, py);
    });
    ctx.stroke();
    if (ts >= 10 && path.length <= 5000) {
      ctx.fillStyle = COLORS.path;
      const r = Math.max(1.5, ts * 0.12);
      for (const [x, y] of path) {
        ctx.beginPath();
        ctx.arc((x + 0.5) * ts, (y + 0.5) * ts, r, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    ctx.restore();
  }

  /**
   * @param {[number, number]} tile
   * @param {string} color
   * @param {string} letter
   */
  _marker(tile, color, letter) {
    const { ctx, tileSize: ts } = this;
    const cx = (tile[0] + 0.5) * ts;
    const cy = (tile[1] + 0.5) * ts;
    const r = Math.max(4, ts * 0.42);
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.fillStyle = color;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = COLORS.unitEdge;
    ctx.stroke();
    if (r >= 6) {
      ctx.fillStyle = COLORS.unitEdge;
      ctx.font = `700 ${Math.round(r * 1.25)}px system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(letter, cx, cy + 0.5);
    }
  }

  /** @param {{x: number, y: number, heading: number}} pose */
  _unit(pose) {
    const { ctx, tileSize: ts } = this;
    const size = Math.max(9, ts * 0.9);
    ctx.save();
    ctx.translate(pose.x * ts, pose.y * ts);
    ctx.rotate(pose.heading);
    ctx.beginPath();
    ctx.moveTo(size * 0.6, 0);
    ctx.lineTo(-size * 0.4, size * 0.38);
    ctx.lineTo(-size * 0.22, 0);
    ctx.lineTo(-size * 0.4, -size * 0.38);
    ctx.closePath();
    ctx.fillStyle = COLORS.unit;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = COLORS.unitEdge;
    ctx.stroke();
    ctx.restore();
  }

  /** @param {[number, number]} tile */
  _hover(tile) {
    const { ctx, tileSize: ts } = this;
    const b = this.brush;
    const x0 = tile[0] - Math.floor((b - 1) / 2);
    const y0 = tile[1] - Math.floor((b - 1) / 2);
    ctx.strokeStyle = COLORS.hover;
    ctx.lineWidth = 1;
    ctx.strokeRect(Math.round(x0 * ts) + 0.5, Math.round(y0 * ts) + 0.5, Math.max(2, b * ts - 1), Math.max(2, b * ts - 1));
  }
}

/**
 * Pack a colour for a Uint32 view of ImageData (little-endian RGBA).
 * @param {readonly number[]} c  [r, g, b] or [r, g, b, a]
 */
function rgba(c) {
  const a = c.length > 3 ? c[3] : 255;
  return ((a << 24) | (c[2] << 16) | (c[1] << 8) | c[0]) >>> 0;
}
