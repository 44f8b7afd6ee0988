// @ts-check
/**
 * Drawing what lies over the tiles: tile paths, realistic paths (true lines and arcs, reversing
 * dashed) with the stretches where the body overlaps a wall, Pinter's Figure 1 comparison, the
 * start and goal markers, the unit and the brush outline. Coordinates are tile units scaled by
 * `ts` CSS px, with the map's corner at the context's origin; headings are radians, 0 = +x.
 *
 * @module view/paths
 */

import { COLORS } from './colors.js';
import { LESTER_TILE_PX } from './viewport.js';

/** @typedef {import('../segments.js').SegmentPath} SegmentPath */
/** @typedef {{color: string, visible: boolean, route: SegmentPath | null, tiles: Array<[number, number]> | null,
 *            blocked: Array<[number, number]>}} ComparedPlan */

/**
 * A tile path: a line through the tiles' centres, with dots when zoomed in.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {Array<[number, number]>} path
 * @param {{alpha: number, stale: boolean}} look
 */
export function drawTilePath(ctx, ts, path, look) {
  ctx.save();
  ctx.globalAlpha = (look.stale ? 0.45 : 1) * look.alpha * (ts >= LESTER_TILE_PX ? 0.85 : 1);
  ctx.strokeStyle = COLORS.path;
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.lineWidth = Math.max(1.5, Math.min(4, ts * 0.18));
  if (look.stale) ctx.setLineDash([ts * 0.4 + 2, ts * 0.3 + 2]);
  polyline(ctx, ts, path);
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
 * Trace a line through the tiles' centres.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {Array<[number, number]>} tiles
 */
function polyline(ctx, ts, tiles) {
  ctx.beginPath();
  tiles.forEach(([x, y], k) => (k ? ctx.lineTo((x + 0.5) * ts, (y + 0.5) * ts) : ctx.moveTo((x + 0.5) * ts, (y + 0.5) * ts)));
}

/**
 * A realistic path: true arcs and lines over a dark casing; reversing stretches dashed.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {SegmentPath} route
 * @param {{color: string, width: number, alpha: number}} look  width: line width, CSS px
 */
export function drawRoute(ctx, ts, route, look) {
  const { color, width } = look;
  ctx.save();
  ctx.globalAlpha = look.alpha;
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  for (const [gear, dash] of /** @type {Array<[number, number[]]>} */ ([[1, []], [-1, [width * 2.5, width * 2]]])) {
    if (!route.segments.some((g) => g.gear === gear)) continue;
    ctx.setLineDash(dash);
    ctx.beginPath();
    route.trace(ctx, ts, 0, route.length, (g) => g.gear === gear);
    ctx.strokeStyle = COLORS.casing;
    ctx.lineWidth = width + 2.5;
    ctx.stroke();
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.stroke();
  }
  ctx.restore();
}

/**
 * The stretches (distances along the route) where the body overlaps a wall: thick translucent red.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {SegmentPath} route
 * @param {Array<[number, number]>} blocked
 */
export function drawBlocked(ctx, ts, route, blocked) {
  if (!blocked.length) return;
  ctx.save();
  ctx.strokeStyle = COLORS.blocked;
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

/**
 * Pinter's Figure 1: each visible plan in its colour, later ones on top; where plans coincide,
 * the earlier ones show as wider bands under the later ones.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {ComparedPlan[]} plans
 */
export function drawComparison(ctx, ts, plans) {
  const width = Math.max(2, Math.min(4.5, ts * 0.16));
  const widen = [1, 2.1, 1.55, 1];
  plans.forEach((e, i) => {
    if (!e.visible) return;
    if (e.route) {
      drawRoute(ctx, ts, e.route, { color: e.color, width: width * (widen[i] ?? 1), alpha: 0.95 });
      drawBlocked(ctx, ts, e.route, e.blocked);
    } else if (e.tiles && e.tiles.length) {
      ctx.save();
      ctx.strokeStyle = e.color;
      ctx.lineJoin = 'miter';
      ctx.lineWidth = width;
      polyline(ctx, ts, e.tiles);
      ctx.stroke();
      ctx.fillStyle = e.color;
      if (ts >= 10) for (const [x, y] of e.tiles) ctx.fillRect((x + 0.5) * ts - 2, (y + 0.5) * ts - 2, 4, 4);
      ctx.restore();
    }
  });
}

/**
 * The start or the goal: a lettered disc (small over a tinted tile in Lester's view).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {[number, number]} tile
 * @param {{color: string, letter: string, small: boolean}} look
 */
export function drawMarker(ctx, ts, tile, look) {
  const cx = (tile[0] + 0.5) * ts;
  const cy = (tile[1] + 0.5) * ts;
  if (look.small) {
    ctx.save();
    ctx.globalAlpha = 0.3;
    ctx.fillStyle = look.color;
    ctx.fillRect(tile[0] * ts, tile[1] * ts, ts, ts);
    ctx.restore();
  }
  const r = look.small ? Math.max(6, ts * 0.13) : Math.max(4, ts * 0.42);
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fillStyle = look.color;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = COLORS.unitEdge;
  ctx.stroke();
  if (r >= 6) {
    ctx.fillStyle = COLORS.unitEdge;
    ctx.font = `700 ${Math.round(r * 1.25)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(look.letter, cx, cy + 0.5);
  }
}

/**
 * The unit: an arrow along its heading, inside a disc of its true width when it has one.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {{x: number, y: number, heading: number}} pose  tile units; radians, 0 = +x, pi/2 = +y
 * @param {number | null} width  its diameter in tiles
 */
export function drawUnit(ctx, ts, pose, width) {
  const size = width ? Math.max(9, width * ts * 0.8) : Math.max(9, Math.min(ts * 0.9, 40));
  ctx.save();
  ctx.translate(pose.x * ts, pose.y * ts);
  if (width) {
    ctx.beginPath();
    ctx.arc(0, 0, (width * ts) / 2, 0, Math.PI * 2);
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

/**
 * The brush's outline around the hovered tile.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {[number, number]} tile
 * @param {number} brush  its side in tiles
 */
export function drawBrush(ctx, ts, tile, brush) {
  const x0 = tile[0] - Math.floor((brush - 1) / 2);
  const y0 = tile[1] - Math.floor((brush - 1) / 2);
  ctx.strokeStyle = COLORS.hover;
  ctx.lineWidth = 1;
  ctx.strokeRect(Math.round(x0 * ts) + 0.5, Math.round(y0 * ts) + 0.5, Math.max(2, brush * ts - 1), Math.max(2, brush * ts - 1));
}
