// @ts-check
/**
 * The view's controls: the canvas sized to the window, zoom (slider, buttons), Fit, grid lines,
 * and the readout of the tile under the mouse (terrain, cost, and its scores in a replay).
 *
 * @module panels/viewbar
 */

import { LESTER_TILE_PX, MAX_TILE_PX } from '../view/viewport.js';
import { $ } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */

/**
 * @param {AppState} app
 * @param {number} factor
 */
export function zoomBy(app, factor) {
  app.viewport.zoomBy(factor);
  app.emit('view');
}

/** Show the whole map. @param {AppState} app */
export function fitView(app) {
  app.viewport.fit();
  app.emit('view');
}

/**
 * @param {AppState} app
 * @param {HTMLCanvasElement} canvas
 */
export function viewbarPanel(app, canvas) {
  const frame = $('map-frame');
  const slider = /** @type {HTMLInputElement} */ ($('zoom'));
  const zoomText = $('zoom-out-text');
  const gridBox = /** @type {HTMLInputElement} */ ($('grid'));
  const readout = $('hover');
  const helpLine = /** @type {HTMLElement} */ (document.querySelector('.keys'));
  const legend = $('compare-legend');
  const metrics = $('world-metrics');
  const vp = app.viewport;

  /** @param {number} ts */
  const tsToSlider = (ts) => Math.round((1000 * Math.log(ts / vp.minTileSize())) / Math.log(MAX_TILE_PX / vp.minTileSize()));
  /** @param {number} v */
  const sliderToTs = (v) => vp.minTileSize() * Math.pow(MAX_TILE_PX / vp.minTileSize(), v / 1000);

  /** Size the canvas to the window, leaving room for what is below it; a fitted view fits the map again. */
  function relayout() {
    const below = [helpLine, legend, metrics].reduce((h, el) => h + (el.hidden ? 0 : Math.ceil(el.getBoundingClientRect().height) + 8), 0);
    vp.resize(canvas, frame, below + 16);
    app.emit('view');
  }

  function showZoom() {
    const ts = vp.tileSize;
    slider.value = String(tsToSlider(ts));
    zoomText.textContent = `${ts >= 10 ? Math.round(ts) : ts.toFixed(ts >= 1 ? 1 : 2)} px`;
    slider.title = `Zoom: ${zoomText.textContent} a tile${ts >= LESTER_TILE_PX ? ' (scores shown)' : ` (scores from ${LESTER_TILE_PX} px)`}`;
    gridBox.checked = app.showGrid;
  }

  function showHover() {
    const m = app.model;
    const size = `${m.width} x ${m.height}`;
    const tile = app.hover;
    if (!tile) {
      readout.textContent = size;
      return;
    }
    const [x, y] = tile;
    const code = m.cells[y * m.width + x];
    const cost = m.costs[code];
    let text = `x ${x}, y ${y}  ${app.terrainName(code)} (${cost === null || cost === undefined ? 'impassable' : `cost ${cost}`})`;
    const player = app.replay?.player;
    if (player && app.shown) {
      const s = player.tile(x, y);
      const f = app.shown.format;
      if (s.list && s.g !== null) text += `  ${s.list}: F ${f(/** @type {number} */ (s.f))} G ${f(s.g)} H ${s.h === null ? '?' : f(s.h)}`;
    }
    readout.textContent = `${text}   ${size}`;
  }

  window.addEventListener('resize', relayout);
  // The top bar can change height (a long status line wraps): keep the map inside the window.
  const ro = new ResizeObserver(relayout);
  for (const el of [document.querySelector('.topbar'), document.querySelector('.toolbar'), helpLine, legend, metrics, $('notice')]) if (el) ro.observe(el);
  slider.addEventListener('input', () => {
    vp.zoomTo(sliderToTs(Number(slider.value)));
    app.emit('view');
  });
  $('zoom-in').addEventListener('click', () => zoomBy(app, 1.25));
  $('zoom-out').addEventListener('click', () => zoomBy(app, 1 / 1.25));
  $('fit').addEventListener('click', () => fitView(app));
  gridBox.addEventListener('change', () => {
    app.showGrid = gridBox.checked;
    app.emit('view');
  });
  app.on('view', showZoom);
  app.on('hover', showHover);
  relayout();
  showHover();
}
