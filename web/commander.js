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
 *   Shift+right click queues the move after what they do. While a patrol or nearest order is
 *   being marked (orders.js), a right click marks its next point instead.
 *
 * It also takes the order keys before the page's keys do (a capture listener, in Command units
 * mode only, never while typing in a field or with the help open): P starts a patrol order, T a
 * nearest-target one; while one is being marked Enter sends it (Shift+Enter queues it), Backspace
 * or Delete takes the last point back and Esc cancels it.
 *
 * @module commander
 */

import { addOrderPoint, cancelOrder, dropOrderPoint, sendOrder, setOrderKind } from './orders.js';
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
  listenToOrderKeys(app, engine);
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
        if (app.world.order.kind !== 'move') addOrderPoint(app, p.x, p.y);
        else void orderSelected(app, engine, p.x, p.y, e.shiftKey);
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

/** Input types that take no typed text (keys on them are the page's). */
const NOT_TEXT = Object.freeze(['range', 'checkbox', 'radio', 'button', 'file']);

/**
 * The order keys in Command units mode (see the module notes), taken before web/keys.js sees them.
 * @param {AppState} app
 * @param {Engine} engine
 */
export function listenToOrderKeys(app, engine) {
  document.addEventListener(
    'keydown',
    (e) => {
      const w = app.world;
      if (w.mode !== 'units' || app.helpOpen || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
      const t = /** @type {HTMLElement} */ (e.target);
      const tag = t && t.tagName;
      const type = tag === 'INPUT' ? /** @type {HTMLInputElement} */ (t).type : '';
      if (tag === 'TEXTAREA' || tag === 'SELECT' || (tag === 'INPUT' && !NOT_TEXT.includes(type))) return;
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      const pending = w.order.kind !== 'move';
      let done = true;
      if (key === 'p' && !e.shiftKey) setOrderKind(app, 'patrol');
      else if (key === 't' && !e.shiftKey) setOrderKind(app, 'nearest');
      else if (pending && key === 'Enter' && tag !== 'BUTTON') void sendOrder(app, engine, e.shiftKey);
      else if (pending && key === 'Escape') cancelOrder(app);
      else if (pending && (key === 'Backspace' || key === 'Delete')) dropOrderPoint(app);
      else done = false;
      if (!done) return;
      e.preventDefault();
      e.stopImmediatePropagation();
    },
    { capture: true },
  );
}
