// @ts-check
/**
 * The canvas renderer: terrain tiles, the search overlay, the path, the start
 * and goal markers, the unit, the grid and the hovered tile, in a view that
 * can be zoomed and panned.
 *
 * Tile (x, y) covers [x, x+1) x [y, y+1) in tile units; on screen a tile is
 * `tileSize` CSS pixels wide and the map's corner (0, 0) is at (`ox`, `oy`)
 * CSS pixels from the canvas's top-left. The canvas fills its frame; "fit"
 * centres the whole map in it.
 *
 * Two looks for a search:
 * - below `LESTER_TILE_PX` per tile, the explored tiles are tinted (closed
 *   blue, open green), from one-pixel-per-tile images scaled up without
 *   smoothing, so a 1024x1024 map draws as fast as a small one;
 * - from `LESTER_TILE_PX` up, when the search's scores are known, each visited
 *   tile is drawn as in Patrick Lester's figures: outlined light green (open)
 *   or light blue (closed), F top left, G bottom left, H bottom right, and a
 *   grey pointer from the tile's centre toward its parent.
 *
 * @module render
 */

import { TERRAIN } from './maps.js';

/** CSS pixels per tile from which Lester's view (scores and pointers) is drawn. */
export const LESTER_TILE_PX = 40;
/** The largest zoom, CSS pixels per tile. */
export const MAX_TILE_PX = 128;
/** "Fit" never zooms in further than this. */
const MAX_FIT_PX = 96;

/** Colours, also used by the legend (keep in step with style.css). */
export const COLORS = Object.freeze({
  background: '#0b0e12',
  mapEdge: '#2a3441',
  /** by terrain code */
  terrain: /** @type {Record<number, number[]>} */ ({
    [TERRAIN.GROUND]: [32, 38, 46],
    [TERRAIN.WALL]: [104, 116, 134],
    [TERRAIN.ROAD]: [150, 128, 96],
    [TERRAIN.SAND]: [176, 158, 98],
    [TERRAIN.SWAMP]: [62, 88, 52],
    [TERRAIN.HILLS]: [122, 78, 58],
    [TERRAIN.WATER]: [34, 70, 120],
  }),
  unknownTerrain: [200, 60, 200],
  closed: [64, 120, 230, 125], // closed list (expanded), blue like Lester's figures
  openList: [70, 200, 110, 150], // open list (frontier), green
  closedEdge: '#8fd3ff', // Lester: closed tiles outlined light blue
  openEdge: '#8dff9e', // Lester: open tiles outlined light green
  current: '#ffd166', // the tile expanded last
  pointer: '#aab3bf', // Lester's grey pointer to the parent
  score: '#f2f5f8',
  scoreShadow: 'rgba(8,10,14,0.9)',
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

/**
 * What Lester's view needs per tile (flat index y * width + x): G, H and the
 * parent's flat index (-1 for the start), for the tiles the overlay marks seen.
 * @typedef {Object} Scores
 * @property {Float64Array} g
 * @property {Float64Array} h
 * @property {Int32Array} parent
 */

/**
 * What was drawn in a tile in Lester's view (the text as shown).
 * @typedef {{f: string, g: string, h: string, list: 'open' | 'closed', parent: [number, number] | null}} DrawnTile
 */

export class Renderer {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {HTMLElement} frame  the element whose width the canvas takes
   */
  constructor(canvas, frame) {
    this.canvas = canvas;
    this.frame = frame;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('This browser has no 2D canvas');
    this.ctx = ctx;
    /** CSS pixels per tile */
    this.tileSize = 16;
    /** the map's top-left corner in canvas CSS pixels */
    this.ox = 0;
    this.oy = 0;
    /** canvas size, CSS pixels */
    this.cssW = 0;
    this.cssH = 0;
    this.dpr = 1;
    /** whether the view is "fit" (kept fitted when the window changes) */
    this.fitted = true;
    /** CSS pixels kept free below the canvas (the help line) */
    this.reserveBelow = 40;
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
    /** @type {Scores | null} scores for Lester's view */
    this.scores = null;
    /** @type {number} flat index of the tile expanded last (-1: none) */
    this.current = -1;
    /** @type {(v: number) => string} how scores are written */
    this.formatScore = (v) => String(Math.round(v));
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
    /** the unit's diameter in tiles (drawn as a disc around it), or null */
    this.unitWidth = /** @type {number | null} */ (null);
    /** @type {import('./segments.js').SegmentPath | null} the realistic path (lines and arcs) */
    this.route = null;
    /** @type {Array<[number, number]>} stretches of the route where the body overlaps a wall */
    this.blocked = [];
    /**
     * Pinter's Figure 1: several plans of one query, each in its colour.
     * @type {Array<{label: string, color: string, visible: boolean, route: import('./segments.js').SegmentPath | null, tiles: Array<[number, number]> | null, blocked: Array<[number, number]>}> | null}
     */
    this.compare = null;
    this.showGrid = true;
    this.brush = 1;
    /** @type {Map<number, DrawnTile>} what Lester's view drew in the last frame, by flat index */
    this.drawn = new Map();
    /** whether the last frame was drawn in Lester's view */
    this.lesterView = false;
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
      this.scores = null;
      this.path = null;
      this.overlayDirty = true;
    }
  }

  /** The terrain (or how it is coloured) changed. */
  invalidateTerrain() {
    this.terrainDirty = true;
  }

  /** The overlay array changed in place (a replay step). */
  invalidateOverlay() {
    this.overlayDirty = true;
  }

  /**
   * Show (or clear) a search result.
   * @param {Overlay | null} explored
   * @param {Array<[number, number]> | null} path
   * @param {Scores | null} [scores]
   */
  setResult(explored, path, scores = null) {
    this.explored = explored;
    this.path = path && path.length ? path : null;
    this.route = null;
    this.blocked = [];
    this.compare = null;
    this.scores = scores;
    this.current = -1;
    this.stale = false;
    this.overlayDirty = true;
  }

  // ------------------------------------------------------------ the view

  /** Size the canvas to its frame (width) and the window (height); keeps the view. */
  resize() {
    const rect = this.frame.getBoundingClientRect();
    const cssW = Math.max(120, Math.floor(rect.width));
    const top = rect.top + window.scrollY;
    const cssH = Math.max(260, Math.floor(window.innerHeight - top - this.reserveBelow));
    if (this.cssW && this.cssH && !this.fitted) {
      // keep the centre of the view where it was
      this.ox += (cssW - this.cssW) / 2;
      this.oy += (cssH - this.cssH) / 2;
    }
    const dpr = window.devicePixelRatio || 1;
    this.cssW = cssW;
    this.cssH = cssH;
    this.canvas.style.width = `${cssW}px`;
    this.canvas.style.height = `${cssH}px`;
    this.canvas.width = Math.round(cssW * dpr);
    this.canvas.height = Math.round(cssH * dpr);
    this.dpr = dpr;
    if (this.fitted) this.fit();
    else this._clampPan();
  }

  /** The tile size at which the whole map fits the canvas. */
  fitTileSize() {
    if (!this.width || !this.height || !this.cssW) return 16;
    let ts = Math.min((this.cssW - 8) / this.width, (this.cssH - 8) / this.height);
    if (ts >= 3) ts = Math.floor(ts);
    return Math.max(0.05, Math.min(ts, MAX_FIT_PX));
  }

  /** The smallest zoom allowed. */
  minTileSize() {
    return Math.min(this.fitTileSize(), 4) / 2;
  }

  /** Show the whole map, centred. */
  fit() {
    if (!this.width || !this.height) return;
    if (!this.cssW) this.resize();
    const ts = this.fitTileSize();
    this.tileSize = ts;
    this.ox = Math.round((this.cssW - this.width * ts) / 2);
    this.oy = Math.round((this.cssH - this.height * ts) / 2);
    this.fitted = true;
  }

  /**
   * Zoom to a tile size, keeping the point (cx, cy) (canvas CSS pixels; the
   * canvas centre by default) over the same spot of the map.
   * @param {number} ts
   * @param {number} [cx]
   * @param {number} [cy]
   */
  zoomTo(ts, cx = this.cssW / 2, cy = this.cssH / 2) {
    const next = Math.max(this.minTileSize(), Math.min(MAX_TILE_PX, ts));
    if (!Number.isFinite(next) || next === this.tileSize) return;
    const tx = (cx - this.ox) / this.tileSize;
    const ty = (cy - this.oy) / this.tileSize;
    this.tileSize = next;
    this.ox = cx - tx * next;
    this.oy = cy - ty * next;
    this.fitted = false;
    this._clampPan();
  }

  /**
   * Zoom by a factor around a point (canvas CSS pixels).
   * @param {number} factor
   * @param {number} [cx]
   * @param {number} [cy]
   */
  zoomBy(factor, cx, cy) {
    this.zoomTo(this.tileSize * factor, cx, cy);
  }

  /**
   * Centre the view on a tile at a tile size.
   * @param {number} x
   * @param {number} y
   * @param {number} [ts]
   */
  centreOn(x, y, ts = this.tileSize) {
    this.tileSize = Math.max(this.minTileSize(), Math.min(MAX_TILE_PX, ts));
    this.ox = this.cssW / 2 - (x + 0.5) * this.tileSize;
    this.oy = this.cssH / 2 - (y + 0.5) * this.tileSize;
    this.fitted = false;
    this._clampPan();
  }

  /**
   * Move the view by (dx, dy) CSS pixels.
   * @param {number} dx
   * @param {number} dy
   */
  panBy(dx, dy) {
    this.ox += dx;
    this.oy += dy;
    this.fitted = false;
    this._clampPan();
  }

  /** Keep part of the map in view. */
  _clampPan() {
    const keep = 48;
    const w = this.width * this.tileSize;
    const h = this.height * this.tileSize;
    this.ox = Math.min(Math.max(this.ox, keep - w), this.cssW - keep);
    this.oy = Math.min(Math.max(this.oy, keep - h), this.cssH - keep);
  }

  /**
   * The tile under a mouse position (may be outside the map).
   * @param {number} clientX
   * @param {number} clientY
   * @returns {[number, number]}
   */
  tileAt(clientX, clientY) {
    const r = this.canvas.getBoundingClientRect();
    return [
      Math.floor((clientX - r.left - this.ox) / this.tileSize),
      Math.floor((clientY - r.top - this.oy) / this.tileSize),
    ];
  }

  /**
   * Where a point in tile units is on the screen (client CSS pixels).
   * @param {number} x
   * @param {number} y
   * @returns {[number, number]}
   */
  toClient(x, y) {
    const r = this.canvas.getBoundingClientRect();
    return [r.left + this.ox + x * this.tileSize, r.top + this.oy + y * this.tileSize];
  }

  /** The tiles in view: [x0, y0, x1, y1), clipped to the map. */
  visibleTiles() {
    const ts = this.tileSize;
    const x0 = Math.max(0, Math.floor(-this.ox / ts));
    const y0 = Math.max(0, Math.floor(-this.oy / ts));
    const x1 = Math.min(this.width, Math.ceil((this.cssW - this.ox) / ts));
    const y1 = Math.min(this.height, Math.ceil((this.cssH - this.oy) / ts));
    return [x0, y0, Math.max(x0, x1), Math.max(y0, y1)];
  }

  // ------------------------------------------------------------ images

  _paintTerrain() {
    if (!this.cells) return;
    const tctx = this.terrain.getContext('2d');
    if (!tctx) return;
    const img = tctx.createImageData(this.width, this.height);
    const px = new Uint32Array(img.data.buffer);
    const table = new Uint32Array(256).fill(rgba(COLORS.unknownTerrain));
    for (const [code, c] of Object.entries(COLORS.terrain)) table[Number(code)] = rgba(c);
    const cells = this.cells;
    for (let i = 0; i < cells.length; i++) px[i] = table[cells[i]];
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
    const mask = this.explored;
    const m = Math.min(px.length, mask.length);
    for (let i = 0; i < m; i++) {
      const v = mask[i];
      if (v === 2) px[i] = closed;
      else if (v === 1) px[i] = open;
    }
    octx.putImageData(img, 0, 0);
  }

  // ------------------------------------------------------------ drawing

  /** Draw a frame. */
  draw() {
    if (this.terrainDirty) this._paintTerrain();
    if (this.overlayDirty) this._paintOverlay();
    const { ctx, tileSize: ts } = this;
    const dpr = this.dpr || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    this.drawn.clear();
    if (!this.width || !this.height) return;
    ctx.save();
    ctx.translate(this.ox, this.oy);
    const [x0, y0, x1, y1] = this.visibleTiles();
    const sw = x1 - x0;
    const sh = y1 - y0;
    ctx.imageSmoothingEnabled = false;
    if (sw > 0 && sh > 0) ctx.drawImage(this.terrain, x0, y0, sw, sh, x0 * ts, y0 * ts, sw * ts, sh * ts);
    const lester = ts >= LESTER_TILE_PX && !!this.explored && !!this.scores;
    this.lesterView = lester;
    if (this.explored && sw > 0 && sh > 0) {
      ctx.globalAlpha = (this.stale ? 0.35 : 1) * (lester ? 0.28 : 1);
      ctx.drawImage(this.overlay, x0, y0, sw, sh, x0 * ts, y0 * ts, sw * ts, sh * ts);
      ctx.globalAlpha = 1;
    }
    if (this.showGrid && ts >= 8) this._grid(x0, y0, x1, y1);
    ctx.strokeStyle = COLORS.mapEdge;
    ctx.lineWidth = 1;
    ctx.strokeRect(-0.5, -0.5, this.width * ts + 1, this.height * ts + 1);
    if (lester) this._lester(x0, y0, x1, y1);
    if (this.current >= 0 && !lester) this._currentTile(this.current);
    if (this.compare) this._compare();
    else if (this.route) {
      if (this.path) this._path(0.3);
      this._route(this.route, COLORS.path, Math.max(2, Math.min(5, ts * 0.2)), this.stale ? 0.45 : 1);
      this._blocked(this.route, this.blocked);
    } else if (this.path) this._path();
    if (this.start) this._marker(this.start, COLORS.start, 'S', lester);
    if (this.goal) this._marker(this.goal, COLORS.goal, 'G', lester);
    if (this.unit) this._unit(this.unit);
    if (this.hover) this._hover(this.hover);
    ctx.restore();
  }

  /** @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1 */
  _grid(x0, y0, x1, y1) {
    const { ctx, tileSize: ts } = this;
    ctx.strokeStyle = COLORS.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    const top = y0 * ts;
    const bottom = y1 * ts;
    const left = x0 * ts;
    const right = x1 * ts;
    // lines on whole device-independent pixels, offset by half a pixel to stay crisp
    const fx = this.ox - Math.round(this.ox);
    const fy = this.oy - Math.round(this.oy);
    for (let x = Math.max(1, x0); x < Math.min(this.width, x1 + 1); x++) {
      const px = Math.round(x * ts) + 0.5 - fx;
      ctx.moveTo(px, top);
      ctx.lineTo(px, bottom);
    }
    for (let y = Math.max(1, y0); y < Math.min(this.height, y1 + 1); y++) {
      const py = Math.round(y * ts) + 0.5 - fy;
      ctx.moveTo(left, py);
      ctx.lineTo(right, py);
    }
    ctx.stroke();
  }

  /**
   * Lester's view of the visible tiles.
   * @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1
   */
  _lester(x0, y0, x1, y1) {
    const { ctx, tileSize: ts } = this;
    const explored = /** @type {Overlay} */ (this.explored);
    const scores = /** @type {Scores} */ (this.scores);
    const W = this.width;
    const edge = Math.max(2, ts * 0.055);
    const inset = edge / 2 + 1.5;
    const pad = Math.max(2, ts * 0.06);
    const fontPx = Math.max(8, Math.min(16, ts * 0.2));
    const font = (/** @type {number} */ px) => `600 ${px.toFixed(1)}px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace`;
    ctx.save();
    ctx.globalAlpha = this.stale ? 0.45 : 1;
    ctx.lineJoin = 'round';
    ctx.textBaseline = 'alphabetic';
    ctx.lineWidth = 3;
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
        const f = g + (Number.isFinite(h) ? h : 0);
        const fText = this.formatScore(f);
        const gText = this.formatScore(g);
        const hText = Number.isFinite(h) ? this.formatScore(h) : '?';
        let px = fontPx;
        ctx.font = font(px);
        const widest = Math.max(ctx.measureText(gText).width + ctx.measureText(hText).width, ctx.measureText(fText).width);
        const room = ts - 2 * (inset + pad) - 2;
        if (widest > room) {
          px = Math.max(6, (px * room) / widest);
          ctx.font = font(px);
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
        // the pointer to the parent
        const p = scores.parent[i];
        /** @type {[number, number] | null} */
        let parent = null;
        if (p >= 0) {
          parent = [p % W, Math.floor(p / W)];
          this._pointer(x, y, parent[0], parent[1]);
        }
        this.drawn.set(i, { f: fText, g: gText, h: hText, list: list === 2 ? 'closed' : 'open', parent });
      }
    }
    if (this.current >= 0) this._currentTile(this.current);
    ctx.restore();
  }

  /**
   * Lester's grey pointer: from the centre of tile (x, y) toward its parent.
   * @param {number} x @param {number} y @param {number} px @param {number} py
   */
  _pointer(x, y, px, py) {
    const { ctx, tileSize: ts } = this;
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

  /** @param {number} i  flat index of the tile expanded last */
  _currentTile(i) {
    const { ctx, tileSize: ts } = this;
    const x = i % this.width;
    const y = Math.floor(i / this.width);
    ctx.save();
    ctx.strokeStyle = COLORS.current;
    ctx.lineWidth = Math.max(1.5, Math.min(4, ts * 0.08));
    const o = ctx.lineWidth / 2;
    ctx.strokeRect(x * ts + o, y * ts + o, Math.max(1, ts - 2 * o), Math.max(1, ts - 2 * o));
    ctx.restore();
  }

  /**
   * A realistic path: true arcs and lines; reversing stretches dashed.
   * @param {import('./segments.js').SegmentPath} route
   * @param {string} color
   * @param {number} width  line width, CSS px
   * @param {number} alpha
   */
  _route(route, color, width, alpha) {
    const { ctx, tileSize: ts } = this;
    ctx.save();
    ctx.globalAlpha = alpha;
    ctx.strokeStyle = color;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.lineWidth = width;
    // A dark casing keeps the path readable over any terrain.
    for (const [gear, dash] of /** @type {Array<[number, number[]]>} */ ([[1, []], [-1, [width * 2.5, width * 2]]])) {
      if (!route.segments.some((g) => g.gear === gear)) continue;
      ctx.setLineDash(dash);
      ctx.beginPath();
      route.trace(ctx, ts, 0, route.length, (g) => g.gear === gear);
      ctx.strokeStyle = 'rgba(8, 10, 14, 0.55)';
      ctx.lineWidth = width + 2.5;
      ctx.stroke();
      ctx.strokeStyle = color;
      ctx.lineWidth = width;
      ctx.stroke();
    }
    ctx.restore();
  }

  /**
   * The stretches where the body overlaps a wall: thick translucent red.
   * @param {import('./segments.js').SegmentPath} route
   * @param {Array<[number, number]>} blocked
   */
  _blocked(route, blocked) {
    if (!blocked || !blocked.length) return;
    const { ctx, tileSize: ts } = this;
    ctx.save();
    ctx.strokeStyle = 'rgba(255, 45, 45, 0.55)';
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.lineWidth = Math.max(8, Math.min(ts * 0.7, 28));
    for (const [a, b] of blocked) {
      ctx.beginPath();
      route.trace(ctx, ts, a, Math.max(b, a + 1e-3));
      ctx.stroke();
    }
    ctx.restore();
  }

  /** Pinter's Figure 1: each visible plan in its colour, the chosen one on top. */
  _compare() {
    const { ctx, tileSize: ts } = this;
    const entries = /** @type {NonNullable<Renderer['compare']>} */ (this.compare);
    const width = Math.max(2, Math.min(4.5, ts * 0.16));
    // Where plans coincide, the earlier ones show as wider bands under the later ones.
    const widen = [1, 2.1, 1.55, 1];
    entries.forEach((e, i) => {
      if (!e.visible) return;
      if (e.route) {
        this._route(e.route, e.color, width * (widen[i] ?? 1), 0.95);
        this._blocked(e.route, e.blocked);
      } else if (e.tiles && e.tiles.length) {
        ctx.save();
        ctx.strokeStyle = e.color;
        ctx.lineJoin = 'miter';
        ctx.lineWidth = width;
        ctx.setLineDash([]);
        ctx.beginPath();
        e.tiles.forEach(([x, y], k) => (k ? ctx.lineTo((x + 0.5) * ts, (y + 0.5) * ts) : ctx.moveTo((x + 0.5) * ts, (y + 0.5) * ts)));
        ctx.stroke();
        ctx.fillStyle = e.color;
        if (ts >= 10) for (const [x, y] of e.tiles) ctx.fillRect((x + 0.5) * ts - 2, (y + 0.5) * ts - 2, 4, 4);
        ctx.restore();
      }
    });
  }

  /** @param {number} [alpha=1] */
  _path(alpha = 1) {
    const { ctx, tileSize: ts } = this;
    const path = /** @type {Array<[number, number]>} */ (this.path);
    ctx.save();
    ctx.globalAlpha = (this.stale ? 0.45 : 1) * alpha;
    ctx.strokeStyle = COLORS.path;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.lineWidth = Math.max(1.5, Math.min(4, ts * 0.18));
    if (ts >= LESTER_TILE_PX) ctx.globalAlpha *= 0.85;
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
      const r = Math.max(1.5, Math.min(ts * 0.12, 5));
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
   * @param {boolean} small  Lester's view: tint the tile, keep the marker small
   */
  _marker(tile, color, letter, small) {
    const { ctx, tileSize: ts } = this;
    const cx = (tile[0] + 0.5) * ts;
    const cy = (tile[1] + 0.5) * ts;
    if (small) {
      ctx.save();
      ctx.globalAlpha = 0.3;
      ctx.fillStyle = color;
      ctx.fillRect(tile[0] * ts, tile[1] * ts, ts, ts);
      ctx.restore();
    }
    const r = small ? Math.max(6, ts * 0.13) : Math.max(4, ts * 0.42);
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
    const w = this.unitWidth;
    const size = w ? Math.max(9, w * ts * 0.8) : Math.max(9, Math.min(ts * 0.9, 40));
    ctx.save();
    ctx.translate(pose.x * ts, pose.y * ts);
    if (w) {
      // The body: a disc of the unit's true width.
      ctx.beginPath();
      ctx.arc(0, 0, (w * ts) / 2, 0, Math.PI * 2);
      ctx.fillStyle = 'rgba(245, 247, 250, 0.18)';
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = 'rgba(245, 247, 250, 0.9)';
      ctx.stroke();
    }
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

/**
 * A terrain's colour as CSS.
 * @param {number} code
 */
export function terrainCss(code) {
  const c = COLORS.terrain[code] || COLORS.unknownTerrain;
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}
