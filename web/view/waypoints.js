// @ts-check
/**
 * The canvas view of a waypoint graph: the board (the squares' map size, tile units), the edges,
 * the points (explored ones green when open, blue when closed), the path along its edges, S and
 * G, the selected point and a link being dragged. The search is dimmed once the graph changed.
 *
 * @module view/waypoints
 */

import { COLORS, css } from './colors.js';
import { drawLetterDisc } from './hex.js';

/** @typedef {import('../app.js').AppState} AppState */

/**
 * A point's radius on the screen, CSS px.
 * @param {number} ts  the tile size
 */
export function pointRadius(ts) {
  return Math.max(5, Math.min(10, ts * 0.35));
}

/**
 * Draw the waypoint graph (the context in CSS pixels, untranslated).
 * @param {CanvasRenderingContext2D} ctx
 * @param {AppState} app
 */
export function drawWaypoints(ctx, app) {
  const { model: m, viewport: vp } = app;
  const g = m.waypoints;
  const ts = vp.tileSize;
  ctx.save();
  ctx.translate(vp.ox, vp.oy);
  ctx.fillStyle = css(COLORS.terrain.ground);
  ctx.fillRect(0, 0, m.width * ts, m.height * ts);
  ctx.strokeStyle = COLORS.mapEdge;
  ctx.lineWidth = 1;
  ctx.strokeRect(-0.5, -0.5, m.width * ts + 1, m.height * ts + 1);
  /** @type {Map<number, {x: number, y: number}>} */
  const at = new Map(g.nodes.map((n) => [n.id, { x: n.x * ts, y: n.y * ts }]));
  ctx.beginPath();
  for (const [a, b] of g.edges) {
    const pa = at.get(a);
    const pb = at.get(b);
    if (!pa || !pb) continue;
    ctx.moveTo(pa.x, pa.y);
    ctx.lineTo(pb.x, pb.y);
  }
  ctx.strokeStyle = '#7d8a9c';
  ctx.lineWidth = 2;
  ctx.stroke();
  const shown = app.shown;
  const stale = !shown || shown.graphVersion !== g.version;
  const ids = shown?.nodes ?? null;
  if (ids && ids.length > 1) {
    ctx.beginPath();
    ids.forEach((id, i) => {
      const p = at.get(Number(id));
      if (!p) return;
      if (i === 0) ctx.moveTo(p.x, p.y);
      else ctx.lineTo(p.x, p.y);
    });
    ctx.strokeStyle = COLORS.path;
    ctx.lineWidth = 5;
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.globalAlpha = stale ? 0.45 : 1;
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
  const link = g.linking;
  if (link) {
    const from = at.get(link.from);
    if (from) {
      ctx.beginPath();
      ctx.moveTo(from.x, from.y);
      ctx.lineTo(link.x * ts, link.y * ts);
      ctx.setLineDash([6, 4]);
      ctx.strokeStyle = COLORS.hover;
      ctx.lineWidth = 2;
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }
  const r = pointRadius(ts);
  const explored = shown?.explored && shown.graphNodes ? shown.explored : null;
  g.nodes.forEach((n) => {
    const p = /** @type {{x: number, y: number}} */ (at.get(n.id));
    const k = explored ? (shown?.graphNodes?.get(n.id) ?? -1) : -1;
    const v = explored && k >= 0 ? explored[k] : 0;
    if (n.id === g.start || n.id === g.goal) {
      drawLetterDisc(ctx, p.x, p.y, r + 3, n.id === g.start ? COLORS.start : COLORS.goal, n.id === g.start ? 'S' : 'G');
    } else {
      ctx.beginPath();
      ctx.arc(p.x, p.y, r, 0, Math.PI * 2);
      ctx.fillStyle = '#d6dde6';
      ctx.fill();
      if (v) {
        ctx.globalAlpha = stale ? 0.45 : 1;
        ctx.fillStyle = css(v === 2 ? COLORS.closed : COLORS.openList);
        ctx.fill();
        ctx.globalAlpha = 1;
      }
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = COLORS.unitEdge;
      ctx.stroke();
    }
    if (n.id === g.selected) {
      ctx.beginPath();
      ctx.arc(p.x, p.y, r + 6, 0, Math.PI * 2);
      ctx.strokeStyle = COLORS.hover;
      ctx.setLineDash([3, 3]);
      ctx.lineWidth = 1.5;
      ctx.stroke();
      ctx.setLineDash([]);
    }
  });
  ctx.restore();
}
