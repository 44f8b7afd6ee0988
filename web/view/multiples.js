// @ts-check
/**
 * Compare mode's pictures: small multiples of the canvas (one per method, the same map and
 * viewport in each: the whole map fitted to equal canvases) with its explored tiles, the tile
 * expanded last while the race plays, and its path once it has finished (the method's colour
 * frames it); or all of them overlaid on one map, each method's closed tiles outlined and its
 * path drawn in its colour;
 * and a bar chart of time and nodes expanded as inline SVG (built node by node, never from text).
 * Coordinates are tiles as everywhere: tile (x, y) covers [x, x+1) x [y, y+1), y down.
 *
 * @module view/multiples
 */

import { COLORS } from './colors.js';
import { drawComparison, drawMarker } from './paths.js';
import { TileImages, drawCurrentTile } from './tiles.js';

/** @typedef {import('../compare.js').MethodRun} MethodRun */
/** @typedef {import('../compare.js').ComparedMap} ComparedMap */

const SVG = 'http://www.w3.org/2000/svg';

/**
 * One small multiple: a canvas and the caches its frames reuse.
 */
export class MultiplePanel {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('This browser has no 2D canvas');
    this.ctx = ctx;
    this.images = new TileImages();
    /** the tile size of the last frame, CSS px (read back by tests) */
    this.tileSize = 0;
  }

  /**
   * Size the canvas (CSS px, sharp on the device's pixels).
   * @param {number} cssW
   * @param {number} cssH
   */
  resize(cssW, cssH) {
    const dpr = window.devicePixelRatio || 1;
    this.canvas.style.width = `${cssW}px`;
    this.canvas.style.height = `${cssH}px`;
    this.canvas.width = Math.max(1, Math.round(cssW * dpr));
    this.canvas.height = Math.max(1, Math.round(cssH * dpr));
  }

  /**
   * Clear the canvas and draw the map's terrain fitted to it; returns the tile size, with the
   * context's origin at the map's corner (the caller restores the context).
   * @param {ComparedMap} map
   * @param {ReadonlyArray<{code: number, name: string}>} terrains
   */
  begin(map, terrains) {
    const { ctx, canvas } = this;
    const dpr = window.devicePixelRatio || 1;
    const cssW = canvas.width / dpr;
    const cssH = canvas.height / dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, cssW, cssH);
    const ts = Math.min(cssW / map.width, cssH / map.height);
    this.tileSize = ts;
    ctx.save();
    ctx.translate(Math.floor((cssW - map.width * ts) / 2), Math.floor((cssH - map.height * ts) / 2));
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.images.terrainImage(map, terrains), 0, 0, map.width * ts, map.height * ts);
    return ts;
  }

  /**
   * The start and the goal, then the context as it was before `begin`.
   * @param {ComparedMap} map
   * @param {number} ts
   */
  end(map, ts) {
    const look = { small: false, heading: null, any: false, focus: false };
    drawMarker(this.ctx, ts, map.start, { ...look, color: COLORS.start, letter: 'S' });
    drawMarker(this.ctx, ts, map.goal, { ...look, color: COLORS.goal, letter: 'G' });
    this.ctx.restore();
  }

  /**
   * Draw one method's run on the map it ran on.
   * @param {ComparedMap} map
   * @param {ReadonlyArray<{code: number, name: string}>} terrains
   * @param {MethodRun} run
   */
  draw(map, terrains, run) {
    const { ctx } = this;
    const ts = this.begin(map, terrains);
    const replay = run.replay;
    const explored = replay ? replay.status : run.explored;
    if (explored) ctx.drawImage(this.images.overlayImage(map.width, map.height, explored, replay ? replay.k : -1), 0, 0, map.width * ts, map.height * ts);
    ctx.strokeStyle = COLORS.mapEdge;
    ctx.lineWidth = 1;
    ctx.strokeRect(-0.5, -0.5, map.width * ts + 1, map.height * ts + 1);
    const finished = !replay || replay.atEnd;
    if (!finished && replay) drawCurrentTile(ctx, ts, replay.current, map.width);
    if (finished && run.state === 'done') {
      // The lab's path colour (it stands out on the explored tiles); the method's colour frames the panel.
      drawComparison(ctx, ts, [{ color: COLORS.path, visible: true, route: run.route, tiles: run.tiles.length ? run.tiles : null, blocked: run.blocked }]);
    }
    this.end(map, ts);
  }

  /**
   * Every run on one map: each one's closed tiles outlined in its colour (at the race's expansion),
   * the tile each expanded last, and, for those that finished, their paths (the earlier ones as
   * wider bands under the later, so paths that coincide all show).
   * @param {ComparedMap} map
   * @param {ReadonlyArray<{code: number, name: string}>} terrains
   * @param {MethodRun[]} runs
   */
  drawOverlay(map, terrains, runs) {
    const { ctx } = this;
    const ts = this.begin(map, terrains);
    ctx.strokeStyle = COLORS.mapEdge;
    ctx.lineWidth = 1;
    ctx.strokeRect(-0.5, -0.5, map.width * ts + 1, map.height * ts + 1);
    runs.forEach((run, i) => {
      const explored = run.replay ? run.replay.status : run.explored;
      if (explored) drawOutline(ctx, ts, explored, map.width, map.height, run.color, Math.max(1, 2.5 - i * 0.5));
    });
    const done = runs.filter((r) => r.state === 'done' && (!r.replay || r.replay.atEnd));
    drawComparison(ctx, ts, done.map((r) => ({ color: r.color, visible: true, route: r.route, tiles: r.tiles.length ? r.tiles : null, blocked: r.blocked })));
    for (const r of runs) {
      if (r.replay && !r.replay.atEnd && r.replay.current >= 0) {
        const c = r.replay.current;
        ctx.strokeStyle = r.color;
        ctx.lineWidth = 2;
        ctx.strokeRect((c % map.width) * ts + 1, Math.floor(c / map.width) * ts + 1, Math.max(1, ts - 2), Math.max(1, ts - 2));
      }
    }
    this.end(map, ts);
  }
}

/**
 * The outline of a search's closed tiles: every tile side between a closed tile and one that
 * is not (or the map's edge), as one stroked path.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} ts
 * @param {Uint8Array} explored  0 unseen, 1 open, 2 closed, per tile
 * @param {number} width
 * @param {number} height
 * @param {string} color
 * @param {number} line  CSS px
 */
function drawOutline(ctx, ts, explored, width, height, color, line) {
  const closed = (/** @type {number} */ x, /** @type {number} */ y) => x >= 0 && y >= 0 && x < width && y < height && explored[y * width + x] === 2;
  ctx.beginPath();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (explored[y * width + x] !== 2) continue;
      const [l, t, r, b] = [x * ts, y * ts, (x + 1) * ts, (y + 1) * ts];
      if (!closed(x, y - 1)) { ctx.moveTo(l, t); ctx.lineTo(r, t); }
      if (!closed(x, y + 1)) { ctx.moveTo(l, b); ctx.lineTo(r, b); }
      if (!closed(x - 1, y)) { ctx.moveTo(l, t); ctx.lineTo(l, b); }
      if (!closed(x + 1, y)) { ctx.moveTo(r, t); ctx.lineTo(r, b); }
    }
  }
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = line;
  ctx.lineCap = 'square';
  ctx.stroke();
  ctx.restore();
}

/**
 * An SVG element with attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 */
function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/**
 * A bar chart of each finished run's time and nodes expanded: two groups of horizontal bars,
 * each scaled to its own largest value, with the value written at the bar's end.
 * @param {MethodRun[]} runs
 * @param {{ms: (v: number) => string, count: (v: number) => string}} format
 * @returns {SVGSVGElement}
 */
export function barChart(runs, format) {
  const W = 420;
  const labelW = 112;
  const valueW = 74;
  const barH = 14;
  const gap = 4;
  const headH = 18;
  const groups = /** @type {const} */ ([
    ['time', 'Time (ms)', (/** @type {MethodRun} */ r) => r.ms, format.ms],
    ['expanded', 'Nodes expanded', (/** @type {MethodRun} */ r) => r.expanded, format.count],
  ]);
  const groupH = headH + runs.length * (barH + gap) + 8;
  const root = /** @type {SVGSVGElement} */ (svg('svg', { viewBox: `0 0 ${W} ${groupH * groups.length}`, role: 'img', class: 'cmp-chart' }));
  root.append(svg('title', {}, 'Time and nodes expanded per method'));
  groups.forEach(([key, title, value, show], gi) => {
    const g = svg('g', { transform: `translate(0 ${gi * groupH})`, 'data-testid': `cmp-chart-${key}` });
    g.append(svg('text', { x: 0, y: 12, class: 'cmp-chart-title' }, title));
    const values = runs.map((r) => (r.state === 'done' ? value(r) : null));
    const most = Math.max(0, ...values.map((v) => v ?? 0));
    runs.forEach((r, i) => {
      const y = headH + i * (barH + gap);
      const v = values[i];
      g.append(svg('text', { x: labelW - 6, y: y + barH - 3, 'text-anchor': 'end', class: 'cmp-chart-label' }, r.label));
      const w = v !== null && most > 0 ? Math.max(1, ((W - labelW - valueW) * v) / most) : 0;
      const bar = svg('rect', { x: labelW, y, width: w.toFixed(1), height: barH, rx: 2, fill: r.color, 'data-value': v ?? '' });
      g.append(bar);
      g.append(svg('text', { x: labelW + w + 4, y: y + barH - 3, class: 'cmp-chart-value' }, v === null ? '–' : show(v)));
    });
    root.append(g);
  });
  return root;
}
