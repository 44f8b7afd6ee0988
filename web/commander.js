// @ts-check
/**
 * The mouse on the map in "Command units" mode (the Units panel, or U): it takes the left and
 * right buttons before the map editor does (capture listeners), and leaves the middle button,
 * Space+drag and the wheel to the editor (pan, zoom).
 *
 * - With the Select tool: a click selects the unit under the pointer (Shift: toggles it in the
 *   selection), a click on empty ground clears the selection, a drag selects the units in a box.
 * - With a kind (tank, car, person): a click places one of that kind and the chosen team.
 * - Right click: the selected units move there (a group spreads over the tiles round the point);
 *   Shift+right click queues the move after what they do.
 *
 * @module commander
 */

import { orderSelected, placeUnit, selectAt, selectBox } from './world.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./engine.js').Engine} Engine */

/** A press that moves less than this (CSS px) is a click, not a box. */
const CLICK_PX = 4;

/**
 * @param {HTMLCanvasElement} canvas
 * @param {AppState} app
 * @param {Engine} engine
 */
export function listenToCommands(canvas, app, engine) {
  /** @type {{x: number, y: number, cx: number, cy: number, shift: boolean, pointer: number} | null} */
  let press = null;

  /**
   * The point under a pointer, in tiles.
   * @param {{clientX: number, clientY: number}} e
   */
  const pointAt = (e) => {
    const r = canvas.getBoundingClientRect();
    const vp = app.viewport;
    return { x: (e.clientX - r.left - vp.ox) / vp.tileSize, y: (e.clientY - r.top - vp.oy) / vp.tileSize };
  };
  const ours = (/** @type {PointerEvent} */ e) => app.world.mode === 'units' && (e.button === 0 || e.button === 2) && !app.space.held;

  canvas.addEventListener(
    'pointerdown',
    (e) => {
      if (!ours(e)) return;
      e.stopImmediatePropagation();
      e.preventDefault();
      canvas.focus({ preventScroll: true });
      const p = pointAt(e);
      if (e.button === 2) {
        void orderSelected(app, engine, p.x, p.y, e.shiftKey);
        return;
      }
      if (app.world.tool !== 'select') {
        void placeUnit(app, engine, p.x, p.y);
        return;
      }
      press = { x: p.x, y: p.y, cx: e.clientX, cy: e.clientY, shift: e.shiftKey, pointer: e.pointerId };
      try {
        canvas.setPointerCapture(e.pointerId);
      } catch {
        /* synthetic events may have no capturable pointer */
      }
    },
    { capture: true },
  );

  canvas.addEventListener(
    'pointermove',
    (e) => {
      if (!press || e.pointerId !== press.pointer) return;
      e.stopImmediatePropagation();
      if (Math.hypot(e.clientX - press.cx, e.clientY - press.cy) < CLICK_PX && !app.world.box) return;
      const p = pointAt(e);
      app.world.box = { x0: press.x, y0: press.y, x1: p.x, y1: p.y };
      app.emit('world');
    },
    { capture: true },
  );

  const release = (/** @type {PointerEvent} */ e) => {
    if (!press || e.pointerId !== press.pointer) return;
    e.stopImmediatePropagation();
    const box = app.world.box;
    const shift = press.shift;
    const at = { x: press.x, y: press.y };
    press = null;
    app.world.box = null;
    if (e.type === 'pointercancel') return app.emit('world');
    if (box) selectBox(app, box, shift);
    else selectAt(app, at.x, at.y, shift);
  };
  canvas.addEventListener('pointerup', release, { capture: true });
  canvas.addEventListener('pointercancel', release, { capture: true });
}
