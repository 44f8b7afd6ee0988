// @ts-check
/**
 * The canvas view of a hex map: the cells' terrain, the search (open cells green, closed blue,
 * dimmed once the map or the markers changed), the path as a line through cell centres, S and G,
 * and the brush under the pointer. Drawn in the core's drawing units (maps/hexgeom.js) scaled by
 * the viewport's tile size; only the cells in view are drawn, one path per colour.
 *
 * @module view/hex
 */

import { COLORS, css, terrainCss } from './colors.js';
import { SQRT3, hexCenter, hexCorners, hexDisc } from '../maps/hexgeom.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../maps/hexgeom.js').Orientation} Orientation */

/**
 * The hex brush's radius for the brush's side (1: one cell; 2 and 3: a cell and its ring; 5: two rings).
 * @param {number} brush
 */
export function hexBrushRadius(brush) {
  return Math.floor(brush / 2);
}

/**
 * Add a hexagon to a path.
 * @param {Path2D} p @param {number} col @param {number} row @param {Orientation} o @param {number} ts
 * @param {number} [size]  centre to corner, drawing units
 */
function addHex(p, col, row, o, ts, size = 1) {
  const [cx, cy] = hexCenter(col, row, o);
  const c = hexCorners(cx * ts, cy * ts, size * ts, o);
  p.moveTo(c[0][0], c[0][1]);
  for (let i = 1; i < 6; i++) p.lineTo(c[i][0], c[i][1]);
  p.closePath();
}

/**
 * The stored cells in view, [c0, r0, c1, r1).
 * @param {AppState} app
 * @returns {[number, number, number, number]}
 */
function cellsInView(app) {
  const { model: m, viewport: vp } = app;
  const ts = vp.tileSize;
  const [cw, ch] = m.orientation === 'pointy' ? [SQRT3, 1.5] : [1.5, SQRT3];
  const clamp = (/** @type {number} */ v, /** @type {number} */ hi) => Math.max(0, Math.min(hi, v));
  return [
    clamp(Math.floor(-vp.ox / ts / cw) - 1, m.width),
    clamp(Math.floor(-vp.oy / ts / ch) - 1, m.height),
    clamp(Math.ceil((vp.cssW - vp.ox) / ts / cw) + 1, m.width),
    clamp(Math.ceil((vp.cssH - vp.oy) / ts / ch) + 1, m.height),
  ];
}

/**
 * A marker: a disc with its letter at a cell's centre.
 * @param {CanvasRenderingContext2D} ctx @param {number} x @param {number} y @param {number} r
 * @param {string} color @param {string} letter
 */
export function drawLetterDisc(ctx, x, y, r, color, letter) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
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
    ctx.fillText(letter, x, y + 0.5);
  }
}

/**
 * Draw the hex map (the context in CSS pixels, untranslated).
 * @param {CanvasRenderingContext2D} ctx
 * @param {AppState} app
 */
export function drawHexMap(ctx, app) {
  const { model: m, viewport: vp } = app;
  const ts = vp.tileSize;
  const o = m.orientation;
  const [c0, r0, c1, r1] = cellsInView(app);
  ctx.save();
  ctx.translate(vp.ox, vp.oy);
  /** @type {Map<number, Path2D>} */
  const byCode = new Map();
  const grid = new Path2D();
  for (let row = r0; row < r1; row++) {
    for (let col = c0; col < c1; col++) {
      const code = m.cells[row * m.width + col];
      let p = byCode.get(code);
      if (!p) byCode.set(code, (p = new Path2D()));
      addHex(p, col, row, o, ts);
      if (app.showGrid && ts >= 6) addHex(grid, col, row, o, ts);
    }
  }
  for (const [code, p] of byCode) {
    ctx.fillStyle = terrainCss(app.terrainName(code));
    ctx.fill(p);
  }
  const shown = app.shown;
  const stale = app.stale;
  if (shown?.explored && shown.explored.length === m.cells.length) {
    const open = new Path2D();
    const closed = new Path2D();
    for (let row = r0; row < r1; row++) {
      for (let col = c0; col < c1; col++) {
        const v = shown.explored[row * m.width + col];
        if (v) addHex(v === 2 ? closed : open, col, row, o, ts, 0.92);
      }
    }
    ctx.globalAlpha = stale ? 0.35 : 1;
    ctx.fillStyle = css(COLORS.openList);
    ctx.fill(open);
    ctx.fillStyle = css(COLORS.closed);
    ctx.fill(closed);
    ctx.globalAlpha = 1;
  }
  if (app.showGrid && ts >= 6) {
    ctx.strokeStyle = COLORS.grid;
    ctx.lineWidth = 1;
    ctx.stroke(grid);
  }
  if (shown?.path.length) {
    ctx.beginPath();
    shown.path.forEach(([col, row], i) => {
      const [x, y] = hexCenter(col, row, o);
      if (i === 0) ctx.moveTo(x * ts, y * ts);
      else ctx.lineTo(x * ts, y * ts);
    });
    ctx.strokeStyle = COLORS.path;
    ctx.lineWidth = Math.max(2, Math.min(5, ts * 0.25));
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.globalAlpha = stale ? 0.45 : 1;
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
  const r = Math.max(4, ts * 0.6);
  for (const [cell, color, letter] of /** @type {const} */ ([[m.start, COLORS.start, 'S'], [m.goal, COLORS.goal, 'G']])) {
    const [x, y] = hexCenter(cell[0], cell[1], o);
    drawLetterDisc(ctx, x * ts, y * ts, r, color, letter);
  }
  if (app.hover && app.world.mode === 'edit') {
    const brush = new Path2D();
    for (const [col, row] of hexDisc(app.hover, hexBrushRadius(app.paint.brush), o)) {
      if (m.inBounds(col, row)) addHex(brush, col, row, o, ts);
    }
    ctx.strokeStyle = COLORS.hover;
    ctx.lineWidth = 1.5;
    ctx.stroke(brush);
  }
  ctx.restore();
}
