// @ts-check
/**
 * Never lose a user's work: the map (cells run-length encoded), terrain costs, start and goal,
 * the search and unit settings and the view's options are written to localStorage shortly after
 * every change, and when the page is hidden or closed; the next visit restores them. Saved data
 * is read as untrusted: anything malformed (a tampered or truncated entry) is refused with a
 * clear message, kept aside under another key, and the example opens instead. A map too large
 * for the browser's storage is not autosaved, and the Map panel says so.
 *
 * @module io/autosave
 */

import { defaultSearchInput, defaultUnitInput, ON_EDIT_CHOICES } from '../controls.js';
import { checkSettings } from '../generator.js';
import { messageOf } from '../util.js';
import { builtInMap } from './coredata.js';
import { showMap } from './maps.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../app.js').LabMap} LabMap */
/** @typedef {import('../engine.js').Engine} Engine */
/** @typedef {import('../app.js').Topic} Topic */

/** The localStorage key of the work, and where unreadable saved work is kept aside. */
export const SAVE_KEY = 'arcstar.lab.v1';
export const BAD_KEY = 'arcstar.lab.v1.unreadable';
/** How long changes must pause before they are written, ms. */
export const SAVE_DELAY_MS = 300;
/** The most characters written (Chromium keeps about 5 M per origin): larger maps are not autosaved. */
export const MAX_SAVE_CHARS = 4_000_000;
/** The largest side of a map the lab opens. */
const MAX_SIDE = 4096;
/** The longest text a saved setting may hold. */
const MAX_TEXT = 200;
/** The topics that change what is saved. */
const SAVED_TOPICS = /** @type {const} */ (['map', 'maps', 'costs', 'options', 'unit', 'view']);

/**
 * The cells as runs [code, count, code, count, ...], or null when there are more than `limit` runs.
 * @param {Uint8Array} cells
 * @param {number} limit
 */
function encodeRuns(cells, limit) {
  /** @type {number[]} */
  const runs = [];
  let i = 0;
  while (i < cells.length) {
    const code = cells[i];
    let j = i + 1;
    while (j < cells.length && cells[j] === code) j++;
    runs.push(code, j - i);
    if (runs.length > limit) return null;
    i = j;
  }
  return runs;
}

/**
 * The work as saved (a JSON text), or a reason it is not saved.
 * @param {AppState} app
 * @returns {{text: string} | {why: string}}
 */
function snapshot(app) {
  const m = app.model;
  const runs = encodeRuns(m.cells, MAX_SAVE_CHARS / 4);
  const tooBig = `This ${m.width} x ${m.height} map is too large to autosave in the browser's storage: use Copy text to keep it.`;
  if (!runs) return { why: tooBig };
  const search = Object.fromEntries(Object.entries(app.search).filter(([k]) => k !== 'unreadable'));
  const text = JSON.stringify({
    v: 1,
    map: { width: m.width, height: m.height, runs, start: m.start, goal: m.goal },
    costs: m.costs,
    mapKey: app.mapKey,
    search,
    unit: app.unitInput,
    driveSpeed: app.driveSpeed,
    showGrid: app.showGrid,
    generator: app.generator,
  });
  return text.length > MAX_SAVE_CHARS ? { why: tooBig } : { text };
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
  const flush = () => {
    if (app.timers.autosave) saveNow(app);
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
}

/**
 * @param {boolean} ok
 * @param {string} what  what is wrong, when not ok
 */
function need(ok, what) {
  if (!ok) throw new Error(what);
}

/** @param {unknown} v @param {number} w @param {number} h */
const isTileIn = (v, w, h) =>
  Array.isArray(v) && v.length === 2 && v.every(Number.isInteger) && v[0] >= 0 && v[1] >= 0 && v[0] < w && v[1] < h;

/** @param {unknown} v */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Check saved work, field by field, and turn it into the page's map and settings. Throws a
 * readable Error on anything malformed.
 * @param {AppState} app
 * @param {string} text
 */
export function readSaved(app, text) {
  /** @type {any} */
  let d;
  try {
    d = JSON.parse(text);
  } catch {
    throw new Error('it is not valid JSON');
  }
  need(isObject(d) && d.v === 1, 'it is not work saved by this version of the lab');
  const mp = d.map;
  need(isObject(mp), 'the map is missing');
  const { width, height, runs } = mp;
  need(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1 && width <= MAX_SIDE && height <= MAX_SIDE,
    `the map size ${JSON.stringify(width)} x ${JSON.stringify(height)} is not one the lab opens`);
  need(Array.isArray(runs) && runs.length % 2 === 0, 'the map tiles are malformed');
  const known = new Set(app.core.terrains.map((t) => t.code));
  const cells = new Uint8Array(width * height);
  let at = 0;
  for (let i = 0; i < runs.length; i += 2) {
    const [code, count] = [runs[i], runs[i + 1]];
    need(known.has(code), `a tile has the unknown terrain ${JSON.stringify(code)}`);
    need(Number.isInteger(count) && count > 0 && at + count <= cells.length, 'the map tiles do not add up to its size');
    cells.fill(code, at, at + count);
    at += count;
  }
  need(at === cells.length, 'the map tiles do not add up to its size');
  need(isTileIn(mp.start, width, height) && isTileIn(mp.goal, width, height), 'the start or the goal lies off the map');
  const costs = d.costs;
  need(Array.isArray(costs) && costs.length === app.model.costs.length, 'the terrain costs are malformed');
  for (const [code, c] of costs.entries()) {
    if (!known.has(code)) continue;
    need(c === null || (typeof c === 'number' && Number.isFinite(c) && c > 0 && c <= 1e6), `the cost ${JSON.stringify(c)} is not one the lab takes`);
  }
  const search = { ...defaultSearchInput() };
  const unit = { ...defaultUnitInput() };
  for (const [into, from, name] of /** @type {const} */ ([[search, d.search, 'search'], [unit, d.unit, 'unit']])) {
    need(isObject(from), `the ${name} settings are missing`);
    const target = /** @type {Record<string, unknown>} */ (into);
    for (const [k, v] of Object.entries(target)) {
      if (!(k in from) || k === 'unreadable') continue;
      const got = from[k];
      need(typeof got === typeof v && (typeof got !== 'string' || got.length <= MAX_TEXT), `the ${name} setting ${k} is malformed`);
      target[k] = got;
    }
  }
  need(ON_EDIT_CHOICES.some(([v]) => v === unit.on_edit), 'the unit setting on_edit is malformed');
  need(typeof d.mapKey === 'string' && d.mapKey.length <= MAX_TEXT, 'the map name is malformed');
  const speed = Number.isFinite(d.driveSpeed) && d.driveSpeed >= 1 && d.driveSpeed <= 60 ? d.driveSpeed : app.driveSpeed;
  /** @type {LabMap} */
  const map = {
    width,
    height,
    cells,
    start: [mp.start[0], mp.start[1]],
    goal: [mp.goal[0], mp.goal[1]],
    costs: app.model.costs.map((c, code) => (known.has(code) ? costs[code] : c)),
  };
  // The last generator's settings (older saves have none; bad ones are dropped, the map is kept).
  let generator = null;
  try {
    generator = d.generator == null ? null : checkSettings(d.generator);
  } catch {
    /* only the Generate fields fall back to their defaults */
  }
  return { map, mapKey: d.mapKey, search, unit, speed, grid: d.showGrid !== false, generator };
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
    showMap(app, engine, w.map, w.mapKey);
    Object.assign(app.search, w.search, { unreadable: [] });
    Object.assign(app.unitInput, w.unit);
    app.driveSpeed = w.speed;
    app.unit.setSpeed(w.speed, performance.now());
    app.showGrid = w.grid;
    app.generator = w.generator;
    app.notice = { text: 'Your last work was restored (map, terrain costs, start and goal, settings). Reset returns to the example.', error: false };
    app.emit('options', 'unit', 'view', 'notes', 'maps');
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
