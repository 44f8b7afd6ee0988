// @ts-check
/**
 * Drawing a directional search: per tile, a fan of the headings whose states were opened (green)
 * and closed (blue), and the hybrid's stages in their own colours (its 4-neighbour A* path, the
 * Smoothing48 passes forward and backward with the points where each gave up, the Directional-8
 * patch between them). Both are drawn only when the result carries them (`heading_fans`,
 * `stages`); a result without them shows its explored tiles, or nothing.
 *
 * Tile units scaled by `ts` CSS px, the map's corner at the context's origin; heading k of the
 * lattice points k x 45 degrees clockwise from east (y down).
 *
 * @module view/stages
 */

/** @typedef {import('../segments.js').SegmentPath} SegmentPath */

import { COLORS, STAGE_COLORS, css } from './colors.js';

/**
 * A Smoothing48 pass: the stops of its legal chain and where it gave up (null: it reached the
 * other end), as tile centres (tile units).
 * @typedef {{stops: Array<[number, number]>, failed: [number, number] | null}} Pass
 */

/**
 * The hybrid's stages as the lab draws them (the result's `stages`; a step that did not run is
 * null): step 1's A* tiles, the two passes, the Directional-8 patch's ends (tile centres), and
 * the step that failed (`astar`, `span`, `patch`, ...; null when none did).
 * @typedef {{astar: Array<[number, number]> | null, forward: Pass | null, backward: Pass | null,
 *            patch: {from: [number, number], to: [number, number]} | null, failed: string | null}} Stages
 */

/**
 * A point [x, y] of two finite numbers, or null.
 * @param {unknown} v
 * @returns {[number, number] | null}
 */
function point(v) {
  return Array.isArray(v) && v.length >= 2 && Number.isFinite(v[0]) && Number.isFinite(v[1]) ? [Number(v[0]), Number(v[1])] : null;
}

/**
 * A list of points, or null when it is not one.
 * @param {unknown} v
 */
function points(v) {
  if (!Array.isArray(v)) return null;
  const out = v.map(point);
  return out.every((p) => p !== null) ? /** @type {Array<[number, number]>} */ (out) : null;
}

/**
 * A tile's centre from a stage pose [x, y, heading] of the core (x, y: the tile).
 * @param {[number, number]} p
 * @returns {[number, number]}
 */
const centre = (p) => [p[0] + 0.5, p[1] + 0.5];

/**
 * A pass as the core sends it ({stops, failed_at}: poses), or null.
 * @param {unknown} v
 * @returns {Pass | null}
 */
function pass(v) {
  if (!v || typeof v !== 'object') return null;
  const o = /** @type {Record<string, unknown>} */ (v);
  const stops = points(o.stops);
  const failed = point(o.failed_at);
  return stops ? { stops: stops.map(centre), failed: failed && centre(failed) } : null;
}

/**
 * The hybrid's stages from a result's `stages` (see the report's request to the core), checked
 * part by part; null when there are none. A malformed part is left out, never guessed.
 * @param {unknown} raw
 * @returns {Stages | null}
 */
export function readStages(raw) {
  if (!raw || typeof raw !== 'object') return null;
  const o = /** @type {Record<string, unknown>} */ (raw);
  const ends = o.patch && typeof o.patch === 'object' ? /** @type {{from?: unknown, to?: unknown}} */ (o.patch) : {};
  const [from, to] = [point(ends.from), point(ends.to)];
  const patch = from && to ? { from: centre(from), to: centre(to) } : null;
  const stages = {
    astar: points(o.astar),
    forward: pass(o.forward),
    backward: pass(o.backward),
    patch,
    failed: typeof o.failed === 'string' ? o.failed : null,
  };
  return stages.astar || stages.forward || stages.backward || stages.patch ? stages : null;
}

/**
 * The hybrid's stages, under the final path; the patch is the stretch of the path between its
 * ends.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {Stages} stages
 * @param {number} alpha
 * @param {SegmentPath} route  the final path
 */
export function drawStages(ctx, ts, stages, alpha, route) {
  const width = Math.max(1.5, Math.min(4, ts * 0.14));
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  if (stages.astar && stages.astar.length > 1) {
    ctx.setLineDash([width * 2, width * 2]);
    line(ctx, ts, stages.astar.map(([x, y]) => [x + 0.5, y + 0.5]), STAGE_COLORS.astar, width);
    ctx.setLineDash([]);
  }
  for (const [p, color] of /** @type {const} */ ([[stages.forward, STAGE_COLORS.forward], [stages.backward, STAGE_COLORS.backward]])) {
    if (!p) continue;
    line(ctx, ts, p.stops, color, width * 1.6);
    ctx.fillStyle = color;
    for (const [x, y] of p.stops) {
      ctx.beginPath();
      ctx.arc(x * ts, y * ts, width * 1.3, 0, Math.PI * 2);
      ctx.fill();
    }
    if (p.failed) cross(ctx, ts, p.failed, width);
  }
  if (stages.patch) {
    const [a, b] = [nearest(route, stages.patch.from), nearest(route, stages.patch.to)];
    ctx.beginPath();
    route.trace(ctx, ts, Math.min(a, b), Math.max(a, b, Math.min(a, b) + 1e-3));
    ctx.strokeStyle = STAGE_COLORS.patch;
    ctx.lineWidth = width * 3.4;
    ctx.stroke();
  }
  ctx.restore();
}

/**
 * The distance along a route nearest to a point (to a twentieth of a tile).
 * @param {SegmentPath} route
 * @param {[number, number]} p  tile units
 */
function nearest(route, p) {
  let best = 0;
  let gap = Infinity;
  for (let d = 0; d <= route.length + 1e-9; d += 0.05) {
    const q = route.poseAt(d);
    const g = Math.hypot(q.x - p[0], q.y - p[1]);
    if (g < gap) [best, gap] = [d, g];
  }
  return best;
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {Array<[number, number]>} pts  tile units
 * @param {string} color
 * @param {number} width
 */
function line(ctx, ts, pts, color, width) {
  ctx.beginPath();
  pts.forEach(([x, y], k) => (k ? ctx.lineTo(x * ts, y * ts) : ctx.moveTo(x * ts, y * ts)));
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.stroke();
}

/**
 * Where a pass gave up: a red cross.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {[number, number]} at  tile units
 * @param {number} width
 */
function cross(ctx, ts, at, width) {
  const r = Math.max(5, ts * 0.3);
  const [x, y] = [at[0] * ts, at[1] * ts];
  ctx.beginPath();
  ctx.moveTo(x - r, y - r);
  ctx.lineTo(x + r, y + r);
  ctx.moveTo(x + r, y - r);
  ctx.lineTo(x - r, y + r);
  ctx.strokeStyle = STAGE_COLORS.failed;
  ctx.lineWidth = width * 1.5;
  ctx.stroke();
}

/**
 * A directional search's states per tile, as the core folds its trace
 * (`DirectionalGraph.heading_fans`): one byte per tile, row-major, bit k set when the state (tile,
 * heading k) was put on the open list (`opened`) or expanded (`closed`); heading k points k x 45
 * degrees clockwise from east.
 * @typedef {{opened: Uint8Array, closed: Uint8Array}} Fans
 */

/**
 * The heading fans of a result (its `heading_fans`), checked against the map's size; null when
 * there are none or they do not fit.
 * @param {unknown} raw
 * @param {number} tiles  width x height
 * @returns {Fans | null}
 */
export function readFans(raw, tiles) {
  if (!raw || typeof raw !== 'object') return null;
  const { opened, closed } = /** @type {{opened?: unknown, closed?: unknown}} */ (raw);
  const fits = (/** @type {unknown} */ a) => a instanceof Uint8Array && a.length === tiles;
  return fits(opened) && fits(closed) ? { opened: /** @type {Uint8Array} */ (opened), closed: /** @type {Uint8Array} */ (closed) } : null;
}

/**
 * Per visible tile, the fan of headings whose states the search saw: an expanded state is a blue
 * spoke, one still open a green spoke. Too small to read below 12 px a tile: then not drawn.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {[number, number, number, number]} range  visible tiles [x0, y0, x1, y1), x1/y1 exclusive
 * @param {number} width  the map's width in tiles
 * @param {Fans} fans
 * @param {number} alpha
 */
export function drawHeadingFans(ctx, ts, range, width, fans, alpha) {
  if (ts < 12) return;
  const [x0, y0, x1, y1] = range;
  const r = ts * 0.42;
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.lineCap = 'round';
  ctx.lineWidth = Math.max(1, Math.min(3, ts * 0.06));
  for (const [open, color] of /** @type {const} */ ([[true, COLORS.openList], [false, COLORS.closed]])) {
    ctx.strokeStyle = css([color[0], color[1], color[2]]);
    ctx.beginPath();
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = y * width + x;
        const bits = open ? fans.opened[i] & ~fans.closed[i] : fans.closed[i];
        if (!bits) continue;
        const cx = (x + 0.5) * ts;
        const cy = (y + 0.5) * ts;
        for (let k = 0; k < 8; k++) {
          if (!(bits & (1 << k))) continue;
          const a = (k * Math.PI) / 4;
          ctx.moveTo(cx + Math.cos(a) * r * 0.15, cy + Math.sin(a) * r * 0.15);
          ctx.lineTo(cx + Math.cos(a) * r, cy + Math.sin(a) * r);
        }
      }
    }
    ctx.stroke();
  }
  ctx.restore();
}

/**
 * The explored tiles of heading fans (0 unseen, 1 open, 2 closed: a tile with any expanded
 * state is closed), drawn under the fans and where they are too small to read.
 * @param {Fans} fans
 */
export function tilesOfFans(fans) {
  return fans.closed.map((c, i) => (c ? 2 : fans.opened[i] ? 1 : 0));
}
