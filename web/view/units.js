// @ts-check
/**
 * Drawing the units in motion: the fog over tiles a team has not seen, the units' claimed tiles
 * and planned paths (each a toggle), their bodies (true width, a shape per kind, the team's
 * colour, a nose along the heading), the selection, the markers where avoidance acted, the
 * points of a patrol or nearest order being marked, and the box being dragged. It reads `app.world` and draws between the last two states the worker sent,
 * so units glide at any frame rate.
 *
 * Tile units, y down; headings in radians, 0 = +x, pi/2 = +y.
 *
 * @module view/units
 */

import { EVENT_SHOW_S } from '../world.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../app.js').LabUnit} LabUnit */

/** The team colours (other teams: grey). Told apart by hue and lightness. */
export const TEAM_COLORS = Object.freeze(/** @type {Record<string, string>} */ ({
  blue: '#4ea8ff',
  red: '#ff5a5f',
  green: '#5ee07a',
  gold: '#ffc93c',
  left: '#4ea8ff',
  right: '#ff5a5f',
}));
/** Units of no team (the presets' crowds) and of teams not listed. */
const OTHER_TEAM = '#9fd3ff';
const SELECTED = '#ffffff';
const EVENT_COLOR = '#ff2d95';
const FAILED = '#ff2d2d';
/** The points of an order being marked: a patrol's loop, a nearest order's targets. */
const ORDER_COLOR = '#7cf0ff';

/** @param {string} team */
export function teamColor(team) {
  return TEAM_COLORS[team] ?? OTHER_TEAM;
}

/**
 * Where a unit is drawn now: between its last two states, by the time since the last came.
 * @param {AppState} app
 * @param {LabUnit} u
 * @param {number} now  performance.now()
 */
export function drawnPose(app, u, now) {
  const w = app.world;
  const k = w.running ? Math.max(0, Math.min(1, (now - w.stateAt) / w.stateGap)) : 1;
  let dh = u.heading - u.ph;
  dh = Math.atan2(Math.sin(dh), Math.cos(dh));
  return { x: u.px + (u.x - u.px) * k, y: u.py + (u.y - u.py) * k, heading: u.ph + dh * k };
}

/** Fog images and runs of unknown tiles, by the known array they show. */
const fogCache = new WeakMap();
/** @type {CanvasPattern | null} the fog's hatching, thin lines in screen pixels */
let hatch = null;

/**
 * The fog over unknown tiles: a dimming (one pixel per tile, scaled) and, per row, the runs of
 * unknown tiles that the hatching fills, so the fog reads as fog and the walls under it still
 * show faintly (the player does not know them; the visitor sees both).
 * @param {Uint8Array} known
 * @param {number} width
 * @param {number} height
 * @returns {{img: HTMLCanvasElement, runs: number[][]} | null}
 */
function fogOf(known, width, height) {
  if (known.length !== width * height) return null;
  let fog = fogCache.get(known);
  if (fog) return fog;
  const img = document.createElement('canvas');
  img.width = width;
  img.height = height;
  const ctx = img.getContext('2d');
  if (!ctx) return null;
  const data = ctx.createImageData(width, height);
  /** @type {number[][]} [y, x0, x1) */
  const runs = [];
  for (let y = 0; y < height; y++) {
    let start = -1;
    for (let x = 0; x <= width; x++) {
      const unknown = x < width && !known[y * width + x];
      if (unknown) data.data[(y * width + x) * 4 + 3] = 115;
      if (unknown && start < 0) start = x;
      else if (!unknown && start >= 0) {
        runs.push([y, start, x]);
        start = -1;
      }
    }
  }
  ctx.putImageData(data, 0, 0);
  fog = { img, runs };
  fogCache.set(known, fog);
  return fog;
}

/**
 * The hatching pattern (made once).
 * @param {CanvasRenderingContext2D} ctx
 */
function hatchPattern(ctx) {
  if (hatch) return hatch;
  const tile = document.createElement('canvas');
  tile.width = tile.height = 9;
  const t = tile.getContext('2d');
  if (!t) return null;
  t.strokeStyle = 'rgba(200, 210, 225, 0.28)';
  t.lineWidth = 1;
  t.beginPath();
  t.moveTo(-1, 10);
  t.lineTo(10, -1);
  t.stroke();
  hatch = ctx.createPattern(tile, 'repeat');
  return hatch;
}

/**
 * The units' planned paths, drawn once into a layer of the canvas's size and copied each frame
 * while they stay the same: 100 dashed paths cost about 8 ms a frame to rasterise in software
 * (headless Chromium, measured), the copy well under one. Redrawn when a path, the selection, a
 * team or the view changes.
 * @type {{canvas: HTMLCanvasElement, key: string, paths: Array<unknown>, marks: string[]} | null}
 */
let pathLayer = null;

/**
 * The planned paths (dashed, in the team's colour; the selected ones stronger), through the layer.
 * @param {CanvasRenderingContext2D} ctx  translated to the map's corner, scaled by the device pixel ratio
 * @param {number} ts
 * @param {AppState} app
 */
function drawPaths(ctx, ts, app) {
  const w = app.world;
  const vp = app.viewport;
  const units = w.units.filter((u) => u.path);
  const key = [ts, vp.ox, vp.oy, vp.dpr, vp.cssW, vp.cssH].join();
  const marks = units.map((u) => `${u.team}${w.selected.has(u.id) ? '*' : ''}`);
  const layer = pathLayer;
  const same = !!layer && layer.key === key && layer.paths.length === units.length
    && units.every((u, i) => u.path === layer.paths[i] && marks[i] === layer.marks[i]);
  if (!same) {
    const canvas = layer?.canvas ?? document.createElement('canvas');
    canvas.width = Math.round(vp.cssW * vp.dpr);
    canvas.height = Math.round(vp.cssH * vp.dpr);
    const lctx = canvas.getContext('2d');
    if (!lctx) return;
    lctx.setTransform(vp.dpr, 0, 0, vp.dpr, vp.ox * vp.dpr, vp.oy * vp.dpr);
    lctx.lineWidth = Math.max(1.5, Math.min(3, ts * 0.08));
    lctx.setLineDash([Math.max(3, ts * 0.25), Math.max(2, ts * 0.15)]);
    for (const u of units) {
      lctx.strokeStyle = teamColor(u.team);
      lctx.globalAlpha = w.selected.has(u.id) ? 0.95 : 0.55;
      lctx.beginPath();
      u.path?.trace(lctx, ts);
      lctx.stroke();
    }
    pathLayer = { canvas, key, paths: units.map((u) => u.path), marks };
  }
  if (!pathLayer) return;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(pathLayer.canvas, 0, 0);
  ctx.restore();
}

/**
 * Draw the world on the map (the context is translated to the map's corner).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts  CSS pixels per tile
 * @param {AppState} app
 * @param {number} now  performance.now()
 */
export function drawWorld(ctx, ts, app, now) {
  const w = app.world;
  const m = app.model;
  if (w.known && w.fog && w.player) {
    const fog = fogOf(w.known, m.width, m.height);
    const pattern = hatchPattern(ctx);
    if (fog) {
      ctx.imageSmoothingEnabled = false;
      ctx.drawImage(fog.img, 0, 0, m.width * ts, m.height * ts);
      if (pattern && ts >= 6) {
        ctx.fillStyle = pattern;
        for (const [y, x0, x1] of fog.runs) ctx.fillRect(x0 * ts, y * ts, (x1 - x0) * ts, ts);
      }
    }
  }
  if (w.showClaimed) {
    for (const u of w.units) {
      if (!u.claimed.length) continue;
      ctx.fillStyle = teamColor(u.team);
      ctx.globalAlpha = 0.22;
      for (const i of u.claimed) ctx.fillRect((i % m.width) * ts, Math.floor(i / m.width) * ts, ts, ts);
      ctx.globalAlpha = 0.7;
      ctx.strokeStyle = teamColor(u.team);
      ctx.lineWidth = 1;
      for (const i of u.claimed) ctx.strokeRect((i % m.width) * ts + 1.5, Math.floor(i / m.width) * ts + 1.5, ts - 3, ts - 3);
    }
    ctx.globalAlpha = 1;
  }
  if (w.showPaths) drawPaths(ctx, ts, app);
  // Where avoidance acted, under the bodies: the latest marker of each unit (older ones fade out).
  const latest = new Map();
  for (const e of w.events) latest.set(e.unit, e);
  /** @type {number[][]} the labels placed this frame (none is drawn over another) */
  const labels = [];
  /** @type {Array<() => void>} the labels, drawn over the bodies */
  const later = [];
  for (let i = w.events.length - 1; i >= 0; i--) {
    const e = w.events[i];
    const age = Math.max(0, w.time - e.t);
    const alpha = Math.max(0, 1 - age / EVENT_SHOW_S);
    const last = latest.get(e.unit) === e;
    if (alpha > 0) drawEvent(ctx, ts, e, alpha * (last ? 1 : 0.4), last && age < 1 ? labels : null, later);
  }
  for (const u of w.units) drawBody(ctx, ts, u, drawnPose(app, u, now), w.selected.has(u.id));
  for (const draw of later) draw();
  if (w.order.kind !== 'move' && w.order.points.length) drawPendingOrder(ctx, ts, app, now);
  if (w.box) {
    const { x0, y0, x1, y1 } = w.box;
    ctx.strokeStyle = SELECTED;
    ctx.fillStyle = 'rgba(255, 255, 255, 0.08)';
    ctx.lineWidth = 1;
    ctx.setLineDash([4, 3]);
    const [x, y, bw, bh] = [Math.min(x0, x1) * ts, Math.min(y0, y1) * ts, Math.abs(x1 - x0) * ts, Math.abs(y1 - y0) * ts];
    ctx.fillRect(x, y, bw, bh);
    ctx.strokeRect(x + 0.5, y + 0.5, bw, bh);
    ctx.setLineDash([]);
  }
}

/**
 * One unit: its body of true width (a tank square-ish, a car longer than wide, a person round), its
 * nose along the heading, a ring when selected, a red cross when its plan failed.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {LabUnit} u
 * @param {{x: number, y: number, heading: number}} pose
 * @param {boolean} selected
 */
function drawBody(ctx, ts, u, pose, selected) {
  const r = Math.max(3, (u.width * ts) / 2);
  const color = teamColor(u.team);
  ctx.save();
  ctx.translate(pose.x * ts, pose.y * ts);
  if (selected) {
    ctx.beginPath();
    ctx.arc(0, 0, r + Math.max(3, ts * 0.12), 0, Math.PI * 2);
    ctx.strokeStyle = SELECTED;
    ctx.lineWidth = 2;
    ctx.stroke();
  }
  ctx.rotate(pose.heading);
  ctx.beginPath();
  if (u.kind === 'tank') {
    roundRect(ctx, -r, -r * 0.85, 2 * r, 1.7 * r, r * 0.25);
  } else if (u.kind === 'car') {
    roundRect(ctx, -r, -r * 0.6, 2 * r, 1.2 * r, r * 0.35);
  } else {
    ctx.arc(0, 0, r, 0, Math.PI * 2);
  }
  ctx.fillStyle = color;
  ctx.globalAlpha = 0.85;
  ctx.fill();
  ctx.globalAlpha = 1;
  ctx.lineWidth = Math.max(1, Math.min(2, ts * 0.05));
  ctx.strokeStyle = '#0b0e12';
  ctx.stroke();
  // the nose (a tank's barrel), along the heading
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.lineTo(r * (u.kind === 'tank' ? 1.45 : 1.05), 0);
  ctx.lineWidth = Math.max(1.5, Math.min(4, r * 0.3));
  ctx.strokeStyle = '#0b0e12';
  ctx.stroke();
  ctx.restore();
  if (u.status === 'failed') {
    ctx.save();
    ctx.translate(pose.x * ts, pose.y * ts);
    ctx.strokeStyle = FAILED;
    ctx.lineWidth = 2;
    const k = r * 0.7;
    ctx.beginPath();
    ctx.moveTo(-k, -k);
    ctx.lineTo(k, k);
    ctx.moveTo(k, -k);
    ctx.lineTo(-k, k);
    ctx.stroke();
    ctx.restore();
  }
}

/**
 * A rounded rectangle added to the current path.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} w
 * @param {number} h
 * @param {number} r
 */
function roundRect(ctx, x, y, w, h, r) {
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/**
 * Where avoidance acted: a dashed ring round the spot (the body drawn later sits inside it), with
 * a tick mark and, for a unit's latest event in its first second when zoomed in, its kind (wait,
 * replan, backup, ...).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {{kind: string, x: number, y: number}} e
 * @param {number} alpha
 * @param {number[][] | null} labels  the labels placed so far ([x0, y0, x1, y1], canvas px), or null for none
 * @param {Array<() => void>} later  where its label goes, to be drawn over the bodies
 */
function drawEvent(ctx, ts, e, alpha, labels, later) {
  const r = Math.max(6, ts * 0.42);
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.translate(e.x * ts, e.y * ts);
  ctx.strokeStyle = EVENT_COLOR;
  ctx.lineWidth = 2;
  ctx.setLineDash([3, 2]);
  ctx.beginPath();
  ctx.arc(0, 0, r, 0, Math.PI * 2);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(r * 0.7, -r * 0.7);
  ctx.lineTo(r * 1.15, -r * 1.15);
  ctx.stroke();
  ctx.restore();
  if (!labels || ts < 28) return;
  const size = Math.round(Math.max(10, Math.min(14, ts * 0.24)));
  const font = `600 ${size}px system-ui, sans-serif`;
  ctx.font = font;
  const x0 = e.x * ts + r * 1.15;
  const y1 = e.y * ts - r * 1.1;
  const box = [x0, y1 - size, x0 + ctx.measureText(e.kind).width, y1];
  if (labels.some((b) => b[0] < box[2] && box[0] < b[2] && b[1] < box[3] && box[1] < b[3])) return;
  labels.push(box);
  later.push(() => {
    ctx.save();
    ctx.globalAlpha = alpha;
    ctx.font = font;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'bottom';
    ctx.lineWidth = 3;
    ctx.strokeStyle = 'rgba(8, 10, 14, 0.85)';
    ctx.strokeText(e.kind, x0, y1);
    ctx.fillStyle = EVENT_COLOR;
    ctx.fillText(e.kind, x0, y1);
    ctx.restore();
  });
}

/**
 * The points of the order being marked, numbered in the order given: a patrol's loop through
 * them (dashed, back to the first; with one point, from each selected unit to it and back), or a
 * nearest order's targets (rings with a cross).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {AppState} app
 * @param {number} now
 */
function drawPendingOrder(ctx, ts, app, now) {
  const w = app.world;
  const pts = w.order.points;
  const patrol = w.order.kind === 'patrol';
  ctx.save();
  ctx.strokeStyle = ORDER_COLOR;
  ctx.lineWidth = Math.max(1.5, Math.min(3, ts * 0.08));
  ctx.setLineDash([Math.max(4, ts * 0.3), Math.max(3, ts * 0.2)]);
  ctx.globalAlpha = 0.9;
  ctx.beginPath();
  if (patrol && pts.length > 1) {
    ctx.moveTo(pts[0][0] * ts, pts[0][1] * ts);
    for (const [x, y] of pts.slice(1)) ctx.lineTo(x * ts, y * ts);
    ctx.closePath();
  } else if (patrol) {
    for (const u of w.units) {
      if (!w.selected.has(u.id)) continue;
      const p = drawnPose(app, u, now);
      ctx.moveTo(p.x * ts, p.y * ts);
      ctx.lineTo(pts[0][0] * ts, pts[0][1] * ts);
    }
  }
  ctx.stroke();
  ctx.setLineDash([]);
  const r = Math.max(7, Math.min(14, ts * 0.4));
  const size = Math.round(Math.max(10, Math.min(14, r * 1.1)));
  ctx.font = `700 ${size}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  pts.forEach(([x, y], i) => {
    const cx = x * ts;
    const cy = y * ts;
    ctx.globalAlpha = 1;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.fillStyle = 'rgba(8, 10, 14, 0.75)';
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = ORDER_COLOR;
    ctx.stroke();
    if (!patrol) {
      ctx.beginPath();
      ctx.moveTo(cx - r * 1.5, cy);
      ctx.lineTo(cx - r, cy);
      ctx.moveTo(cx + r, cy);
      ctx.lineTo(cx + r * 1.5, cy);
      ctx.moveTo(cx, cy - r * 1.5);
      ctx.lineTo(cx, cy - r);
      ctx.moveTo(cx, cy + r);
      ctx.lineTo(cx, cy + r * 1.5);
      ctx.stroke();
    }
    ctx.fillStyle = ORDER_COLOR;
    ctx.fillText(String(i + 1), cx, cy + 0.5);
  });
  ctx.restore();
}
