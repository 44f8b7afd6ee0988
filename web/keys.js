// @ts-check
/**
 * The keyboard: Enter finds a path, Esc cancels (or pauses the replay), Enter on Open file opens it, Ctrl+Z / Ctrl+Shift+Z /
 * Ctrl+Y undo and redo, 1-9 choose a terrain, [ and ] the brush, P and E the tool, + - 0 zoom,
 * arrows pan, . and , step the replay, Home and End jump in it, Space plays or pauses (held
 * down, a left drag pans), R and Shift+R turn the selected marker by 45 degrees and Delete clears
 * its heading, N generates a new map with a new seed, C compares the methods ticked (compare.js), and ? opens the help (Esc closes it). Keys typed into a field stay in
 * the field; while the help is open only Esc and ? act.
 *
 * U switches the mouse between editing the map and commanding units. In Command units mode
 * Space plays or pauses the world (not the replay), . steps it one tick, [ and ] make it slower
 * and faster, X stops the selected units, Delete removes them and Esc clears the selection.
 *
 * While the keyboard cursor is on the map (cursor.js; Tab to the map) some keys act on it
 * instead: the arrows move it (Shift: by 5), Space paints (Command units: selects or places),
 * Delete and Backspace erase, S and G put the start and the goal there, and in Command units
 * mode M sends the selected units there. Enter still finds a path.
 *
 * @module keys
 */

import { generateFromUi } from './panels/generate.js';
import { setHelp } from './panels/help.js';
import { BRUSHES, selectTerrain, setBrush, setTool } from './panels/terrain.js';
import { fitView, zoomBy } from './panels/viewbar.js';
import { seekReplay, stepReplay, togglePlay } from './playback.js';
import { cancelSearch, findFromUi } from './search.js';
import { runCompare } from './compare.js';
import { KEY_STEP_DEG, rotateHeading, setHeading } from './headings.js';
import { SPEEDS, removeUnits, setMode, setSpeed, stepWorld, stopSelected, togglePlayWorld } from './world.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./engine.js').Engine} Engine */

/** @typedef {import('./cursor.js').KeyCursor} KeyCursor */

/** Tiles an arrow key moves the keyboard cursor. */
const ARROWS = Object.freeze({ ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] });

/** Input types that take no typed text. */
const NOT_TEXT = Object.freeze(['range', 'checkbox', 'radio', 'button', 'file']);

/**
 * @param {AppState} app
 * @param {Engine} engine
 * @param {HTMLCanvasElement} canvas  shows the grab cursor while Space is held
 * @param {KeyCursor} cursor  the keyboard cursor on the map
 */
export function listenToKeys(app, engine, canvas, cursor) {
  const vp = app.viewport;
  const releaseSpace = () => {
    app.space.held = false;
    delete canvas.dataset.space;
  };

  const units = () => app.world.mode === 'units';

  /**
   * The keys the keyboard cursor takes while it is on the map; whether it took this one.
   * @param {KeyboardEvent} e
   * @param {string} key
   */
  const onCursor = (e, key) => {
    const step = e.shiftKey ? 5 : 1;
    const arrow = ARROWS[/** @type {keyof typeof ARROWS} */ (key)];
    if (arrow) cursor.move(arrow[0] * step, arrow[1] * step);
    else if (key === ' ') {
      if (!e.repeat) cursor.press(e.shiftKey);
    } else if (!units() && (key === 'Delete' || key === 'Backspace')) {
      if (!e.repeat) cursor.erase(key);
    } else if (key === 's' || key === 'g') cursor.place(key === 's' ? 'start' : 'goal');
    else if (units() && key === 'm') cursor.order(e.shiftKey);
    else return false;
    return true;
  };

  document.addEventListener('keydown', (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    const tag = t && t.tagName;
    const type = tag === 'INPUT' ? /** @type {HTMLInputElement} */ (t).type : '';
    const textEntry = tag === 'TEXTAREA' || (tag === 'INPUT' && !NOT_TEXT.includes(type));
    const typing = textEntry || tag === 'SELECT';
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (app.helpOpen) {
      if (key === 'Escape' || key === '?') {
        e.preventDefault();
        setHelp(app, false);
      }
      return;
    }
    if (cursor.active && t === canvas && !mod && !e.altKey && onCursor(e, key)) {
      e.preventDefault();
      return;
    }
    if (key === '?' && !textEntry && !mod) {
      e.preventDefault();
      setHelp(app, true);
    } else if (mod && key === 'z' && !e.shiftKey) {
      if (textEntry) return;
      e.preventDefault();
      app.model.undo();
    } else if (mod && ((key === 'z' && e.shiftKey) || key === 'y')) {
      if (textEntry) return;
      e.preventDefault();
      app.model.redo();
    } else if (key === 'Enter' && type === 'file') {
      // The browser opens a file input on Space only; Enter opens it too, as on a button.
      e.preventDefault();
      if (!e.repeat) t.click();
    } else if (key === 'Enter' && !mod) {
      // Enter in a search number field (weight, budget) searches; in a cost field it applies the cost.
      const searchField = tag === 'INPUT' && (type === 'range' || type === 'checkbox' || !!t.closest('[data-enter="find"]'));
      if (tag === 'TEXTAREA' || tag === 'SELECT' || tag === 'BUTTON' || (tag === 'INPUT' && !searchField) || e.repeat) return;
      e.preventDefault();
      findFromUi(app, engine);
    } else if (key === 'Escape') {
      if (app.searching) {
        e.preventDefault();
        cancelSearch(app, engine);
      } else if (units() && app.world.selected.size) {
        app.world.selected.clear();
        app.emit('world');
      } else if (app.replay?.player.playing) {
        togglePlay(app);
      }
    } else if (key === ' ' && !mod) {
      if (typing || tag === 'BUTTON' || type === 'checkbox' || type === 'range' || type === 'file') return;
      e.preventDefault();
      if (!e.repeat && !app.space.held) {
        app.space.held = true;
        app.space.panned = false;
        canvas.dataset.space = '1';
      }
    } else if (!mod && !e.altKey && !typing) {
      // a range input, or a box that scrolls on its own (the metrics table), keeps its keys
      const slider = type === 'range' || t.getAttribute('role') === 'region';
      const terrains = app.core.terrains;
      const digit = key.length === 1 && key >= '1' && key <= '9' ? Number(key) : 0;
      const w = app.world;
      if (key === 'u') setMode(app, units() ? 'edit' : 'units');
      else if (units() && (key === '.' || key === '>')) void stepWorld(app, engine);
      else if (units() && (key === '[' || key === ']')) {
        const i = Math.max(0, SPEEDS.indexOf(w.speed));
        void setSpeed(app, engine, SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i + (key === ']' ? 1 : -1)))]);
      } else if (units() && key === 'x') void stopSelected(app, engine);
      else if (units() && (key === 'Delete' || key === 'Backspace') && w.selected.size) void removeUnits(app, engine, [...w.selected]);
      else if (key === 'r') rotateHeading(app, app.markerFocus, e.shiftKey ? -KEY_STEP_DEG : KEY_STEP_DEG);
      else if (key === 'Delete' || key === 'Backspace') setHeading(app, app.markerFocus, null);
      else if (key === 'n') void generateFromUi(app, engine, true);
      else if (key === 'c') void runCompare(app, engine);
      else if (key === 'p') setTool(app, 'paint');
      else if (key === 'e') setTool(app, 'erase');
      else if (digit && terrains[digit - 1]) selectTerrain(app, terrains[digit - 1].code);
      else if (key === '[' || key === ']') {
        const i = BRUSHES.indexOf(app.paint.brush);
        setBrush(app, BRUSHES[Math.max(0, Math.min(BRUSHES.length - 1, (i < 0 ? 0 : i) + (key === ']' ? 1 : -1)))]);
      } else if (key === '+' || key === '=') zoomBy(app, 1.25);
      else if (key === '-' || key === '_') zoomBy(app, 1 / 1.25);
      else if (key === '0') fitView(app);
      else if (key === '.' || key === '>') stepReplay(app, 1);
      else if (key === ',' || key === '<') stepReplay(app, -1);
      else if ((key === 'Home' || key === 'End') && !slider && app.replay) {
        e.preventDefault();
        seekReplay(app, key === 'Home' ? 0 : Infinity);
      } else if (key.startsWith('Arrow') && !slider) {
        e.preventDefault();
        const step = Math.max(vp.tileSize, Math.min(vp.cssW, vp.cssH) * 0.15);
        const dx = key === 'ArrowLeft' ? step : key === 'ArrowRight' ? -step : 0;
        const dy = key === 'ArrowUp' ? step : key === 'ArrowDown' ? -step : 0;
        vp.panBy(dx, dy);
        app.emit('view');
      }
    }
  });

  document.addEventListener('keyup', (e) => {
    if (cursor.release(e.key)) return;
    if (e.key !== ' ' || !app.space.held) return;
    releaseSpace();
    if (app.space.panned) return;
    if (units() && app.world.on) void togglePlayWorld(app, engine);
    else togglePlay(app);
  });
  window.addEventListener('blur', releaseSpace);
}
