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

/** Below this tile size (CSS px) a marker has no knob: it would cover the tiles next to it. */
export const KNOB_MIN_TILE_PX = 24;

/**
 * Where a marker's heading knob is (map CSS px, the map's corner at 0, 0), and how near a pointer
 * must come to take it; with no heading the knob waits east of the marker (the start's default).
 * The knob sits between the marker's disc and the next tile's centre, and never reaches that
 * centre, so a stroke begun on a tile next to a marker paints. Null below KNOB_MIN_TILE_PX.
 * @param {number} ts
 * @param {[number, number]} tile
 * @param {number | null} heading  radians, 0 = +x, pi/2 = +y
 */
export function headingHandle(ts, tile, heading) {
  if (ts < KNOB_MIN_TILE_PX) return null;
  const len = ts * 0.74;
  const a = heading ?? 0;
  return {
    x: (tile[0] + 0.5) * ts + Math.cos(a) * len,
    y: (tile[1] + 0.5) * ts + Math.sin(a) * len,
    len,
    hit: Math.min(ts * 0.22, 12),
  };
}

/**
 * The start or the goal: a lettered disc (small over a tinted tile in Lester's view) and its
 * heading: an arrow out to a knob to drag; with none, a dotted stub to the knob, and for the goal
 * a ring of ticks (any heading). The marker the keys turn has a ring.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {[number, number]} tile
 * @param {{color: string, letter: string, small: boolean, heading: number | null, any: boolean, focus: boolean}} look
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
  drawHeading(ctx, ts, tile, r, look);
  disc(ctx, cx, cy, r, { fill: look.color, edge: COLORS.unitEdge, line: 1.5 });
  if (look.focus) {
    ctx.beginPath();
    ctx.arc(cx, cy, r + 3, 0, Math.PI * 2);
    ctx.strokeStyle = COLORS.hover;
    ctx.setLineDash([3, 3]);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  if (r >= 6) {
    ctx.fillStyle = COLORS.unitEdge;
    ctx.font = `700 ${Math.round(r * 1.25)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(look.letter, cx, cy + 0.5);
  }
}

/**
 * A marker's heading: the arrow and its knob, or the stub and (goal) the ring of any heading.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {[number, number]} tile
 * @param {number} r  the marker's radius, px
 * @param {{color: string, heading: number | null, any: boolean}} look
 */
function drawHeading(ctx, ts, tile, r, look) {
  const cx = (tile[0] + 0.5) * ts;
  const cy = (tile[1] + 0.5) * ts;
  const knob = headingHandle(ts, tile, look.heading);
  const a = look.heading ?? 0;
  ctx.save();
  ctx.lineCap = 'round';
  if (look.any) {
    // Any heading: eight short ticks around the disc.
    ctx.strokeStyle = look.color;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (let k = 0; k < 8; k++) {
      const t = (k * Math.PI) / 4;
      ctx.moveTo(cx + Math.cos(t) * (r + 2), cy + Math.sin(t) * (r + 2));
      ctx.lineTo(cx + Math.cos(t) * (r + 6), cy + Math.sin(t) * (r + 6));
    }
    ctx.stroke();
  }
  // Zoomed out there is no knob: a heading is an arrow just past the disc.
  const len = knob ? knob.len : r + Math.max(6, r);
  if (knob || look.heading !== null) {
    const [ex, ey] = [cx + Math.cos(a) * len, cy + Math.sin(a) * len];
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.lineTo(ex, ey);
    ctx.strokeStyle = COLORS.casing;
    ctx.lineWidth = 5;
    if (look.heading === null) ctx.setLineDash([3, 4]);
    ctx.stroke();
    ctx.strokeStyle = look.color;
    ctx.lineWidth = 2.5;
    ctx.stroke();
    ctx.setLineDash([]);
    if (look.heading !== null) {
      // The arrowhead, on the knob.
      const s = Math.max(5, Math.min(12, ts * 0.3));
      ctx.beginPath();
      ctx.moveTo(ex + Math.cos(a) * s * 0.6, ey + Math.sin(a) * s * 0.6);
      ctx.lineTo(ex + Math.cos(a + 2.5) * s, ey + Math.sin(a + 2.5) * s);
      ctx.lineTo(ex + Math.cos(a - 2.5) * s, ey + Math.sin(a - 2.5) * s);
      ctx.closePath();
      fillEdged(ctx, { fill: look.color, edge: COLORS.unitEdge, line: 1.2 });
    } else if (knob) {
      // The knob waiting to be dragged.
      disc(ctx, ex, ey, Math.max(3.5, knob.hit * 0.45), { fill: COLORS.unitEdge, edge: look.color, line: 2 });
    }
  }
  ctx.restore();
}

/**
 * A filled disc with an edge.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x  px
 * @param {number} y  px
 * @param {number} r  px
 * @param {{fill: string, edge: string, line: number}} look
 */
function disc(ctx, x, y, r, look) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  fillEdged(ctx, look);
}

/**
 * Fill the current path and stroke its edge.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{fill: string, edge: string, line: number}} look
 */
function fillEdged(ctx, look) {
  ctx.fillStyle = look.fill;
  ctx.fill();
  ctx.lineWidth = look.line;
  ctx.strokeStyle = look.edge;
  ctx.stroke();
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
  if (width) disc(ctx, 0, 0, (width * ts) / 2, { fill: 'rgba(245, 247, 250, 0.18)', edge: 'rgba(245, 247, 250, 0.9)', line: 2 });
  ctx.rotate(pose.heading);
  ctx.beginPath();
  ctx.moveTo(size * 0.6, 0);
  ctx.lineTo(-size * 0.4, size * 0.38);
  ctx.lineTo(-size * 0.22, 0);
  ctx.lineTo(-size * 0.4, -size * 0.38);
  ctx.closePath();
  fillEdged(ctx, { fill: COLORS.unit, edge: COLORS.unitEdge, line: 1.5 });
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
