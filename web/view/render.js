// @ts-check
/**
 * The canvas view: draws the app state (terrain, the search overlay, the paths, the markers, the
 * unit, the grid and the brush) through the state's viewport. It reads the state and keeps only
 * caches of its own (the tile images, repainted when what they show changed) and a record of what
 * the last frame showed, which the test API reads back.
 *
 * Two looks for a search: below `LESTER_TILE_PX` a tile, the explored tiles are tinted (closed
 * blue, open green); from there up, when the search's scores are known, Lester's view.
 *
 * @module view/render
 */

import { COLORS } from './colors.js';
import { drawBlocked, drawBrush, drawComparison, drawMarker, drawRoute, drawTilePath, drawUnit } from './paths.js';
import { readHeadings } from '../headings.js';
import { drawHexMap } from './hex.js';
import { drawHeadingFans, drawStages } from './stages.js';
import { TileImages, drawCurrentTile, drawGrid, drawLester } from './tiles.js';
import { drawWorld } from './units.js';
import { drawWaypoints } from './waypoints.js';
import { LESTER_TILE_PX } from './viewport.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('./tiles.js').DrawnTile} DrawnTile */

export class Renderer {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('This browser has no 2D canvas');
    this.ctx = ctx;
    this.images = new TileImages();
    /** @type {Map<number, DrawnTile>} what Lester's view drew in the last frame, by flat index */
    this.drawn = new Map();
    /** whether the last frame was drawn in Lester's view */
    this.lesterView = false;
  }

  /**
   * Draw the state as it is now (the units in motion over the rest: view/units.js).
   * @param {AppState} app
   */
  draw(app) {
    const { ctx } = this;
    const vp = app.viewport;
    const model = app.model;
    const ts = vp.tileSize;
    ctx.setTransform(vp.dpr, 0, 0, vp.dpr, 0, 0);
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, vp.cssW, vp.cssH);
    this.drawn.clear();
    this.lesterView = false;
    if (!model.width || !model.height) return;
    // A hex map or a waypoint graph has a view of its own (view/hex.js, view/waypoints.js).
    if (model.kind === 'hex') return drawHexMap(ctx, app);
    if (model.kind === 'waypoints') return drawWaypoints(ctx, app);
    const search = searchOnMap(app);
    const stale = app.stale;
    ctx.save();
    ctx.translate(vp.ox, vp.oy);
    const range = vp.visibleTiles();
    const [x0, y0, x1, y1] = range;
    const sw = x1 - x0;
    const sh = y1 - y0;
    ctx.imageSmoothingEnabled = false;
    if (sw > 0 && sh > 0) {
      ctx.drawImage(this.images.terrainImage(model, app.core.terrains), x0, y0, sw, sh, x0 * ts, y0 * ts, sw * ts, sh * ts);
    }
    const lester = ts >= LESTER_TILE_PX && !!search.explored && !!search.scores;
    this.lesterView = lester;
    if (search.explored && sw > 0 && sh > 0) {
      const overlay = this.images.overlayImage(model.width, model.height, search.explored, search.step);
      // Under heading fans the tiles are only a tint: the spokes say which states.
      const fanned = !!search.fans && ts >= 12;
      ctx.globalAlpha = (stale ? 0.35 : 1) * (lester ? 0.28 : fanned ? 0.4 : 1);
      ctx.drawImage(overlay, x0, y0, sw, sh, x0 * ts, y0 * ts, sw * ts, sh * ts);
      ctx.globalAlpha = 1;
    }
    if (app.showGrid && ts >= 8) drawGrid(ctx, ts, range, vp);
    ctx.strokeStyle = COLORS.mapEdge;
    ctx.lineWidth = 1;
    ctx.strokeRect(-0.5, -0.5, model.width * ts + 1, model.height * ts + 1);
    if (lester && search.explored && search.scores && app.shown) {
      const format = app.shown.format;
      drawLester(ctx, ts, range, { width: model.width, explored: search.explored, scores: search.scores, format, stale }, this.drawn);
    }
    if (search.fans && !lester) drawHeadingFans(ctx, ts, range, model.width, search.fans, stale ? 0.4 : 0.9);
    if (search.current >= 0) drawCurrentTile(ctx, ts, search.current, model.width);
    const plans = app.compare.on ? app.compare.plans : null;
    if (plans) drawComparison(ctx, ts, plans);
    else if (search.planned) {
      if (search.stages) drawStages(ctx, ts, search.stages, stale ? 0.45 : 0.9, search.planned.route);
      // A directional path's tiles are its lattice states, steps of up to 3 tiles: not a line to draw.
      else if (search.path && !search.curves) drawTilePath(ctx, ts, search.path, { alpha: 0.3, stale });
      const width = Math.max(2, Math.min(5, ts * 0.2));
      drawRoute(ctx, ts, search.planned.route, { color: COLORS.path, width, alpha: stale ? 0.45 : 1 });
      drawBlocked(ctx, ts, search.planned.route, search.planned.blocked);
    } else if (search.path) drawTilePath(ctx, ts, search.path, { alpha: 1, stale });
    const headings = readHeadings(app.unitInput);
    const focus = app.markerFocus;
    // Commanding units, the search's S and G step back (they would hide units standing there).
    const commanding = app.world.on && app.world.mode === 'units';
    if (commanding) ctx.globalAlpha = 0.35;
    drawMarker(ctx, ts, model.start, { color: COLORS.start, letter: 'S', small: lester, heading: headings.start, any: false, focus: focus === 'start' });
    drawMarker(ctx, ts, model.goal, { color: COLORS.goal, letter: 'G', small: lester, heading: headings.goal, any: headings.goal === null, focus: focus === 'goal' });
    ctx.globalAlpha = 1;
    // The unit is drawn once it has a path to drive (before that it would hide the S marker).
    if (app.unit.route) drawUnit(ctx, ts, app.unit.pose, app.unit.width);
    if (app.world.on) drawWorld(ctx, ts, app, performance.now());
    if (app.hover && app.world.mode === 'edit') drawBrush(ctx, ts, app.hover, app.paint.brush);
    ctx.restore();
  }
}

/**
 * What of the shown search is on the map now: mid-replay, the replayed state (no path yet);
 * otherwise the search's end.
 * @param {AppState} app
 */
function searchOnMap(app) {
  const shown = app.shown;
  const player = app.replay?.player ?? null;
  const atEnd = !player || player.atEnd;
  return {
    explored: player ? player.status : (shown?.explored ?? null),
    scores: shown?.scores ?? null,
    step: player ? player.k : -1,
    current: player && !atEnd ? player.current : -1,
    path: atEnd && shown?.path.length ? shown.path : null,
    planned: atEnd ? (shown?.planned ?? null) : null,
    curves: shown?.curves ?? null,
    fans: player ? null : (shown?.fans ?? null),
    stages: atEnd ? (shown?.stages ?? null) : null,
  };
}
