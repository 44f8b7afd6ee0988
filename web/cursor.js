// @ts-check
/**
 * The keyboard cursor on the map: a tile the keys act on, for people who do not use a mouse.
 * It shows when the canvas gets the focus from the keyboard (Tab) and hides when a pointer
 * presses the map or the focus leaves it, so the keys keep their other meanings for mouse users.
 *
 * keys.js maps the keys to these commands: arrows move it (Shift: 5 tiles) and the view scrolls to
 * keep it in sight; Space paints the terrain (the Erase tool: ground) with the brush and Delete or
 * Backspace erase, each held down a stroke that the arrows extend, one undo step; S and G put the
 * start and the goal on it. In Command units mode Space selects the unit there (Shift: adds to the
 * selection) or places one of the chosen kind, and M sends the selected units there (Shift: queued).
 *
 * What the tile holds is written in a live region the canvas is described by, so a screen reader
 * says it; the cursor is drawn as an outline over the canvas (the brush's square when editing).
 *
 * @module cursor
 */

import { lineTiles, brushSquare, stamp, strokeLabel } from './editor.js';
import { addOrderPoint } from './orders.js';
import { $ } from './util.js';
import { orderSelected, placeUnit, selectAt, unitAt } from './world.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./engine.js').Engine} Engine */
/** @typedef {import('./state.js').Tile} Tile */

export class KeyCursor {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {AppState} app
   * @param {Engine} engine
   */
  constructor(canvas, app, engine) {
    this.canvas = canvas;
    this.app = app;
    this.engine = engine;
    this.box = $('map-cursor');
    this.text = $('map-cursor-text');
    /** the cursor is shown and the keys act on it */
    this.active = false;
    /** @type {Tile | null} where it is (null: not placed yet; it starts on the start marker) */
    this.tile = null;
    /** @type {null | {key: string, code: number, last: Tile}} a stroke while Space or Delete is held */
    this.stroke = null;
    /** Tab is down: the canvas's next focus comes from the keyboard */
    this.tabbing = false;

    document.addEventListener('keydown', (e) => {
      this.tabbing = e.key === 'Tab';
    }, { capture: true });
    document.addEventListener('keyup', (e) => {
      if (e.key === 'Tab') this.tabbing = false;
    }, { capture: true });
    document.addEventListener('pointerdown', (e) => {
      this.tabbing = false;
      if (e.target === canvas) this.hide();
    }, { capture: true });
    canvas.addEventListener('focus', () => {
      if (this.tabbing) this.show();
    });
    canvas.addEventListener('blur', () => {
      // Another window took the focus: the cursor is still there when it comes back.
      this.release(this.stroke?.key ?? '');
      if (document.hasFocus()) this.hide();
    });
    for (const topic of /** @type {const} */ (['view', 'terrain', 'world'])) app.on(topic, () => this.draw());
    app.model.subscribe((kind) => {
      if (kind === 'load') this.tile = null; // a new map: the cursor starts again on its start
    });
    app.on('map', () => this._mapChanged());
  }

  /** Show the cursor (where it was, or on the start) and describe its tile. */
  show() {
    const m = this.app.model;
    if (!this.tile || !m.inBounds(this.tile[0], this.tile[1])) this.tile = [m.start[0], m.start[1]];
    this.active = true;
    this._moved('');
  }

  /** Hide it (a pointer took over, or the focus left the map); a stroke under way ends. */
  hide() {
    if (!this.active) return;
    this.release(this.stroke?.key ?? '');
    this.active = false;
    this.draw();
  }

  /**
   * Move by (dx, dy) tiles, staying on the map; a held stroke paints the tiles passed.
   * @param {number} dx
   * @param {number} dy
   */
  move(dx, dy) {
    const m = this.app.model;
    if (!this.active || !this.tile) return;
    const to = /** @type {Tile} */ ([clamp(this.tile[0] + dx, m.width), clamp(this.tile[1] + dy, m.height)]);
    if (this.stroke && !m.stroke) this.stroke = null; // an undo or a new map closed it
    if (this.stroke) {
      stamp(this.app, lineTiles(this.stroke.last, to), this.stroke.code);
      this.stroke.last = to;
    }
    this.tile = to;
    this._moved('');
  }

  /**
   * Space: paint (edit mode), or select or place a unit (Command units mode).
   * @param {boolean} shift  Command units: add the unit to the selection, or take it out
   */
  press(shift) {
    if (!this.active || !this.tile) return;
    const [x, y] = this.tile;
    if (this.app.world.mode === 'units') {
      if (this.app.world.tool === 'select') {
        selectAt(this.app, x + 0.5, y + 0.5, shift);
        this._moved(this.app.world.selected.size ? '' : 'No unit here; the selection is cleared. ');
      } else void placeUnit(this.app, this.engine, x + 0.5, y + 0.5).then(() => this._moved(''));
      return;
    }
    const { paint, model } = this.app;
    this._begin(' ', paint.tool === 'erase' ? model.ground : paint.code);
  }

  /** Delete or Backspace (edit mode): erase, held down a stroke. @param {string} key */
  erase(key) {
    if (!this.active || !this.tile) return;
    this._begin(key, this.app.model.ground);
  }

  /**
   * A key is released: the stroke it holds ends (one undo step). Returns whether it held one.
   * @param {string} key
   */
  release(key) {
    if (!this.stroke || this.stroke.key !== key) return false;
    this.stroke = null;
    this.app.model.endStroke();
    return true;
  }

  /**
   * S or G: put the start or the goal on the cursor's tile (one undo step), or say why not.
   * @param {'start' | 'goal'} which
   */
  place(which) {
    if (!this.active || !this.tile) return;
    const m = this.app.model;
    const [x, y] = this.tile;
    const other = which === 'start' ? m.goal : m.start;
    const moved = m.moveMarker(which, [x, y]);
    this.app.markerFocus = which;
    this.app.emit('view');
    const why = moved
      ? ''
      : !m.isOpen(x, y)
        ? `The ${which} cannot go here: the tile is impassable. `
        : other[0] === x && other[1] === y
          ? `The ${which} cannot go on the ${which === 'start' ? 'goal' : 'start'}. `
          : '';
    this._moved(why);
  }

  /**
   * M (Command units mode): the selected units move to the cursor's tile; while a patrol or
   * nearest order is being marked (orders.js), the tile is its next point instead.
   * @param {boolean} queue  after their orders
   */
  order(queue) {
    if (!this.active || !this.tile) return;
    const [x, y] = [this.tile[0] + 0.5, this.tile[1] + 0.5];
    if (this.app.world.order.kind !== 'move') addOrderPoint(this.app, x, y);
    else void orderSelected(this.app, this.engine, x, y, queue);
  }

  /** Where the cursor is, for the test API: {x, y, active}, or null before it was shown. */
  read() {
    return this.tile ? { x: this.tile[0], y: this.tile[1], active: this.active } : null;
  }

  /**
   * Start a stroke of `code` at the cursor, held by `key`.
   * @param {string} key
   * @param {number} code
   */
  _begin(key, code) {
    const tile = /** @type {Tile} */ (this.tile);
    this.release(this.stroke?.key ?? '');
    this.app.model.beginStroke(strokeLabel(this.app, code));
    this.stroke = { key, code, last: tile };
    stamp(this.app, [tile], code);
    this._moved('');
  }

  /** The map changed (an edit, a new map): keep the cursor on it and say what its tile holds now. */
  _mapChanged() {
    const m = this.app.model;
    if (this.tile) this.tile = [clamp(this.tile[0], m.width), clamp(this.tile[1], m.height)];
    else if (this.active) this.tile = [m.start[0], m.start[1]];
    if (this.active) this._describe('');
    this.draw();
  }

  /**
   * After a move or an action: the view follows, the readout and the live region say the tile.
   * @param {string} before  what to say first (why an action did nothing)
   */
  _moved(before) {
    if (!this.tile) return;
    if (this.app.viewport.reveal(this.tile[0], this.tile[1])) this.app.emit('view');
    this.app.hover = [this.tile[0], this.tile[1]];
    this.app.emit('hover');
    this._describe(before);
    this.draw();
  }

  /** @param {string} before */
  _describe(before) {
    if (!this.tile) return;
    const app = this.app;
    const m = app.model;
    const [x, y] = this.tile;
    const code = m.cells[y * m.width + x];
    const cost = m.costs[code];
    const parts = [`x ${x}, y ${y}: ${app.terrainName(code)}, ${cost === null || cost === undefined ? 'impassable' : `cost ${cost}`}`];
    if (m.start[0] === x && m.start[1] === y) parts.push('the start');
    if (m.goal[0] === x && m.goal[1] === y) parts.push('the goal');
    if (app.world.on) {
      const u = unitAt(app, x + 0.5, y + 0.5);
      if (u) parts.push(`unit ${u.id}${app.world.selected.has(u.id) ? ' (selected)' : ''}`);
    }
    if (this.stroke) parts.push(this.stroke.code === m.ground ? 'erasing' : `painting ${app.terrainName(this.stroke.code)}`);
    this.text.textContent = `${before}${parts.join('; ')}.`;
  }

  /** Draw the outline over the canvas: the cursor's tile, or the brush's square when editing. */
  draw() {
    const box = this.box;
    box.hidden = !this.active || !this.tile;
    if (box.hidden || !this.tile) return;
    const vp = this.app.viewport;
    const ts = vp.tileSize;
    const editing = this.app.world.mode === 'edit';
    const [x0, y0, side] = editing ? brushSquare(this.app, this.tile[0], this.tile[1]) : [this.tile[0], this.tile[1], 1];
    box.style.left = `${vp.ox + x0 * ts}px`;
    box.style.top = `${vp.oy + y0 * ts}px`;
    box.style.width = box.style.height = `${Math.max(4, side * ts)}px`;
    box.dataset.x = String(this.tile[0]);
    box.dataset.y = String(this.tile[1]);
    box.dataset.painting = this.stroke ? '1' : '';
  }
}

/**
 * @param {number} v
 * @param {number} n
 */
function clamp(v, n) {
  return Math.max(0, Math.min(n - 1, v));
}
