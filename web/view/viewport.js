// @ts-check
/**
 * The view's geometry: how the map lies on the canvas. Tile (x, y) covers [x, x+1) x [y, y+1) in
 * tile units; on screen a tile is `tileSize` CSS pixels wide and the map's corner (0, 0) is at
 * (`ox`, `oy`) CSS pixels from the canvas's top-left. The canvas fills its frame; "fit" centres
 * the whole map in it. The app state holds one Viewport; the renderer draws through it.
 *
 * @module view/viewport
 */

/** CSS pixels per tile from which Lester's view (scores and pointers) is drawn. */
export const LESTER_TILE_PX = 40;
/** The largest zoom, CSS pixels per tile. */
export const MAX_TILE_PX = 128;
/** "Fit" never zooms in further than this. */
const MAX_FIT_PX = 96;
/** CSS pixels of the map kept in view when panning. */
const KEEP_IN_VIEW_PX = 48;
/** The one-column layout of style.css (phones), and the share of the window height its canvas takes. */
const NARROW_QUERY = '(max-width: 760px)';
const NARROW_SHARE = 0.62;

export class Viewport {
  constructor() {
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
    /** the size of the map shown, in tiles */
    this.width = 0;
    this.height = 0;
  }

  /**
   * Show a map of this size, fitted.
   * @param {number} width
   * @param {number} height
   */
  showMap(width, height) {
    this.width = width;
    this.height = height;
    this.fit();
  }

  /**
   * Size the canvas to its frame (width) and the window (height), keeping the view.
   * @param {HTMLCanvasElement} canvas
   * @param {HTMLElement} frame  the element whose width the canvas takes
   * @param {number} reserveBelow  CSS pixels kept free below the canvas (the help line)
   */
  resize(canvas, frame, reserveBelow) {
    const rect = frame.getBoundingClientRect();
    const cssW = Math.max(120, Math.floor(rect.width));
    const top = rect.top + window.scrollY;
    const room = Math.floor(window.innerHeight - top - reserveBelow);
    // In the one-column layout (phones) the panels are below the map and the page scrolls: the
    // canvas takes at most NARROW_SHARE of the window, so a finger can reach the page beside it.
    const narrow = window.matchMedia(NARROW_QUERY).matches;
    const cssH = Math.max(260, narrow ? Math.min(room, Math.floor(window.innerHeight * NARROW_SHARE)) : room);
    if (this.cssW && this.cssH && !this.fitted) {
      // keep the centre of the view where it was
      this.ox += (cssW - this.cssW) / 2;
      this.oy += (cssH - this.cssH) / 2;
    }
    const dpr = window.devicePixelRatio || 1;
    this.cssW = cssW;
    this.cssH = cssH;
    canvas.style.width = `${cssW}px`;
    canvas.style.height = `${cssH}px`;
    canvas.width = Math.round(cssW * dpr);
    canvas.height = Math.round(cssH * dpr);
    this.dpr = dpr;
    if (this.fitted) this.fit();
    else this.clampPan();
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
    this.fitted = true;
    if (!this.width || !this.height || !this.cssW) return;
    const ts = this.fitTileSize();
    this.tileSize = ts;
    this.ox = Math.round((this.cssW - this.width * ts) / 2);
    this.oy = Math.round((this.cssH - this.height * ts) / 2);
  }

  /**
   * Zoom to a tile size, keeping the point (cx, cy) (canvas CSS pixels; the canvas centre by
   * default) over the same spot of the map.
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
    this.clampPan();
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
   * A two-finger gesture's step: the map point under the fingers' old centre goes under their new
   * centre, scaled by how much further apart they are (a pinch), so the map follows the fingers.
   * @param {{x: number, y: number, d: number}} from  the old centre (canvas CSS pixels) and distance
   * @param {{x: number, y: number, d: number}} to  the new ones
   */
  pinch(from, to) {
    const factor = from.d > 0 && to.d > 0 ? to.d / from.d : 1;
    // Where the old centre's map point lands after zooming about it, then the centre's own move.
    this.zoomBy(factor, from.x, from.y);
    this.panBy(to.x - from.x, to.y - from.y);
  }

  /**
   * Scroll as little as possible so that tile (x, y) and `margin` tiles round it are in view
   * (the keyboard cursor stays visible). Returns whether the view moved.
   * @param {number} x
   * @param {number} y
   * @param {number} [margin]
   */
  reveal(x, y, margin = 1) {
    const ts = this.tileSize;
    // The margin shrinks on a canvas too small to hold it on both sides.
    const m = Math.max(0, Math.min(margin * ts, (this.cssW - ts) / 2, (this.cssH - ts) / 2));
    const left = this.ox + x * ts;
    const top = this.oy + y * ts;
    const dx = left < m ? m - left : left + ts > this.cssW - m ? this.cssW - m - (left + ts) : 0;
    const dy = top < m ? m - top : top + ts > this.cssH - m ? this.cssH - m - (top + ts) : 0;
    if (!dx && !dy) return false;
    this.panBy(Math.round(dx), Math.round(dy));
    return true;
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
    this.clampPan();
  }

  /** Keep part of the map in view. */
  clampPan() {
    const w = this.width * this.tileSize;
    const h = this.height * this.tileSize;
    this.ox = Math.min(Math.max(this.ox, KEEP_IN_VIEW_PX - w), this.cssW - KEEP_IN_VIEW_PX);
    this.oy = Math.min(Math.max(this.oy, KEEP_IN_VIEW_PX - h), this.cssH - KEEP_IN_VIEW_PX);
  }

  /**
   * The tile under a point given in client CSS pixels (may be outside the map).
   * @param {DOMRect} canvasRect  the canvas's client rectangle
   * @param {number} clientX
   * @param {number} clientY
   * @returns {[number, number]}
   */
  tileAt(canvasRect, clientX, clientY) {
    return [
      Math.floor((clientX - canvasRect.left - this.ox) / this.tileSize),
      Math.floor((clientY - canvasRect.top - this.oy) / this.tileSize),
    ];
  }

  /**
   * Where a point in tile units is on the screen (client CSS pixels).
   * @param {DOMRect} canvasRect  the canvas's client rectangle
   * @param {number} x
   * @param {number} y
   * @returns {[number, number]}
   */
  toClient(canvasRect, x, y) {
    return [canvasRect.left + this.ox + x * this.tileSize, canvasRect.top + this.oy + y * this.tileSize];
  }

  /**
   * The tiles in view: [x0, y0, x1, y1), clipped to the map.
   * @returns {[number, number, number, number]}
   */
  visibleTiles() {
    const ts = this.tileSize;
    const x0 = Math.max(0, Math.floor(-this.ox / ts));
    const y0 = Math.max(0, Math.floor(-this.oy / ts));
    const x1 = Math.min(this.width, Math.ceil((this.cssW - this.ox) / ts));
    const y1 = Math.min(this.height, Math.ceil((this.cssH - this.oy) / ts));
    return [x0, y0, Math.max(x0, x1), Math.max(y0, y1)];
  }
}
