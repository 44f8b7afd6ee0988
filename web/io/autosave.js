// @ts-check
/**
 * Never lose a user's work: the work's snapshot (io/work.js: the map, terrain costs, start and
 * goal, the search and unit settings, the view's options, the world's units) is written to
 * localStorage shortly after every change, and when the page is hidden or closed; the next visit
 * restores it. Saved data
 * is read as untrusted: anything malformed (a tampered or truncated entry) is refused with a
 * clear message, kept aside under another key, and the example opens instead. A map too large
 * for the browser's storage is not autosaved, and the Map panel says so.
 *
 * @module io/autosave
 */

import { defaultSearchInput, defaultUnitInput } from '../controls.js';
import { messageOf } from '../util.js';
import { builtInMap } from './coredata.js';
import { showMap } from './maps.js';
import { MAX_WORK_CHARS, placeUnits, readWork, showWork, workText } from './work.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */

/** The localStorage key of the work, and where unreadable saved work is kept aside. */
export const SAVE_KEY = 'arcstar.lab.v1';
export const BAD_KEY = 'arcstar.lab.v1.unreadable';
/** How long changes must pause before they are written, ms. */
export const SAVE_DELAY_MS = 300;
/** The most characters written (Chromium keeps about 5 M per origin): larger maps are not autosaved. */
export const MAX_SAVE_CHARS = MAX_WORK_CHARS;
/** The topics that change what is saved. */
const SAVED_TOPICS = /** @type {const} */ (['map', 'maps', 'costs', 'options', 'unit', 'view', 'methods']);

/**
 * The work as saved (a JSON text: the same snapshot share links and work files carry), or a
 * reason it is not saved.
 * @param {AppState} app
 * @returns {{text: string} | {why: string}}
 */
function snapshot(app) {
  const snap = workText(app);
  if ('text' in snap) return snap;
  const m = app.model;
  return { why: `This ${m.width} x ${m.height} map is too large to autosave in the browser's storage: use Copy text to keep it.` };
}

/**
 * Write the work now (the debounced save, and when the page is hidden).
 * @param {AppState} app
 */
export function saveNow(app) {
  clearTimeout(app.timers.autosave);
  app.timers.autosave = 0;
  const snap = snapshot(app);
  let note = '';
  if ('why' in snap) {
    note = snap.why;
    try {
      localStorage.removeItem(SAVE_KEY); // an older, smaller map must not come back in its place
    } catch {
      /* storage unavailable: the note says the work is not saved */
    }
  } else {
    try {
      localStorage.setItem(SAVE_KEY, snap.text);
    } catch (e) {
      const full = e instanceof DOMException && (e.name === 'QuotaExceededError' || e.code === 22);
      note = full
        ? "Not autosaved: the browser's storage for this page is full. Use Copy text to keep the map."
        : `Not autosaved: the browser refused to store it (${messageOf(e)}).`;
    }
  }
  if (note !== app.saveNote) {
    app.saveNote = note;
    app.emit('notes');
  }
}

/**
 * Save the work a moment after each change, and at once when the page is hidden or closed.
 * @param {AppState} app
 */
export function autosave(app) {
  const later = () => {
    clearTimeout(app.timers.autosave);
    app.timers.autosave = window.setTimeout(() => saveNow(app), SAVE_DELAY_MS);
  };
  for (const topic of SAVED_TOPICS) app.on(topic, later);
  // The world's states come many times a second: only units coming and going are a change to save.
  const seen = { roster: -1, on: false };
  app.on('world', () => {
    const w = app.world;
    if (w.rosterVersion === seen.roster && w.on === seen.on) return;
    [seen.roster, seen.on] = [w.rosterVersion, w.on];
    later();
  });
  const flush = () => {
    if (app.timers.autosave) saveNow(app);
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
}

/**
 * Check saved work, field by field, and turn it into the page's map and settings. Throws a
 * readable Error on anything malformed.
 * @param {AppState} app
 * @param {string} text
 */
export function readSaved(app, text) {
  return readWork(app, text);
}

/**
 * Open the saved work, or the example when there is none or it cannot be read (the notice says why).
 * @param {AppState} app
 * @param {Engine} engine
 */
export async function restoreWork(app, engine) {
  /** @type {string | null} */
  let text = null;
  try {
    text = localStorage.getItem(SAVE_KEY);
  } catch {
    /* storage unavailable: start from the example */
  }
  const example = () => showMap(app, engine, builtInMap(app.core, 'example'), 'example');
  if (text === null) {
    example();
    return;
  }
  try {
    const w = readSaved(app, text);
    showWork(app, engine, w);
    const units = w.world ? ', units' : '';
    app.notice = { text: `Your last work was restored (map, terrain costs, start and goal, settings${units}). Reset returns to the example.`, error: false };
    app.emit('notes');
    placeUnits(app, engine, w.world).catch((e) => {
      app.notice = { text: `Your last work was restored, but its units could not be placed: ${messageOf(e)}.`, error: true };
      app.emit('notes');
    });
  } catch (e) {
    try {
      localStorage.setItem(BAD_KEY, text);
      localStorage.removeItem(SAVE_KEY);
    } catch {
      /* nothing more to keep */
    }
    example();
    app.notice = {
      text: `Your saved work could not be restored: ${messageOf(e)}. The example map is open instead (the unreadable data is kept in localStorage as "${BAD_KEY}").`,
      error: true,
    };
    app.emit('notes');
  }
}

/**
 * Back to the example map and the default settings; the saved work is replaced.
 * @param {AppState} app
 * @param {Engine} engine
 */
export async function resetWork(app, engine) {
  Object.assign(app.search, defaultSearchInput());
  Object.assign(app.unitInput, defaultUnitInput());
  showMap(app, engine, { ...builtInMap(app.core, 'example'), costs: app.core.terrains.map((t) => t.cost) }, 'example');
  app.notice = null;
  app.emit('options', 'unit', 'costs', 'notes');
  app.setStatus(app.engineState === 'ready' ? 'ready' : 'loading', 'Reset: the example map and the default settings. Press Enter or click Find path.', 1);
  saveNow(app);
}
