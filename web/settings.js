// @ts-check
/**
 * Commands on the search settings: set some by name (the test API and the presets), and take
 * the menus' choices from the engine's `info` answer.
 *
 * @module settings
 */

import { DEFAULT_OPTIONS, LABELS, label, readOptions } from './controls.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./controls.js').SearchOptions} SearchOptions */

const OPTION_KEYS = Object.keys(DEFAULT_OPTIONS);
/** The settings typed as numbers. */
export const NUMBER_KEYS = Object.freeze(['weight', 'turn_penalty', 'max_expansions']);

/**
 * Set search settings with the same checks as the controls, e.g. {method: 'dijkstra'}. Throws a
 * readable Error, changing nothing, on an unknown name or value.
 * @param {AppState} app
 * @param {Partial<SearchOptions>} partial
 * @returns {SearchOptions} the settings as they would now be sent
 */
export function setOptions(app, partial) {
  if (!partial || typeof partial !== 'object') throw new Error('setOptions needs an object, e.g. {method: "dijkstra"}');
  for (const [k, v] of Object.entries(partial)) {
    if (!OPTION_KEYS.includes(k)) throw new Error(`Unknown option "${k}" (known: ${OPTION_KEYS.join(', ')})`);
    const values = app.choices[k];
    if (values) {
      if (!values.includes(String(v))) throw new Error(`${k} must be one of ${values.join(', ')} (got ${JSON.stringify(v)})`);
    } else if (k === 'trace') {
      if (typeof v !== 'boolean') throw new Error(`trace must be true or false (got ${JSON.stringify(v)})`);
    } else if (!(v === null && k === 'max_expansions') && typeof v !== 'number') {
      throw new Error(`${k} must be a number (got ${JSON.stringify(v)})`);
    }
  }
  const input = /** @type {Record<string, unknown>} */ (app.search);
  for (const [k, v] of Object.entries(partial)) input[k] = k === 'trace' ? v : v === null ? '' : String(v);
  app.search.unreadable = app.search.unreadable.filter((k) => !(k in partial));
  app.emit('options');
  return readOptions(app.search).options;
}

/** The settings' names as the panel shows them. */
const SETTING_NAMES = Object.freeze({
  method: 'method',
  neighbours: 'moves',
  diagonal: 'diagonals',
  costs: 'step costs',
  heuristic: 'heuristic',
  weight: 'weight',
  open_list: 'open list',
  turn_penalty: 'turn cost',
  stop: 'stop when',
  max_expansions: 'budget',
  trace: 'record',
});

/**
 * A setting's value as the panel shows it.
 * @param {string} k
 * @param {unknown} v
 */
function shown(k, v) {
  if (k in LABELS) return label(/** @type {keyof typeof LABELS} */ (k), String(v));
  if (k === 'neighbours') return `${v} neighbours`;
  return v === '' ? 'none' : String(v);
}

/**
 * Set search settings for a map or a preset (Lester's example, a benchmark) so that nothing
 * changes silently: what changed is put in `app.settingsNote` (the search panel shows it with an
 * Undo button) and in the map's undo history, one step. Returns the note's text ('' when
 * nothing changed). Call it after the map is shown: a new map clears the history.
 * @param {AppState} app
 * @param {Partial<SearchOptions>} partial
 * @param {string} source  what changed them, e.g. "Lester's example"
 */
export function applyPreset(app, partial, source) {
  const input = /** @type {Record<string, unknown>} */ (app.search);
  const before = { ...app.search, unreadable: [...app.search.unreadable] };
  setOptions(app, partial);
  const after = { ...app.search, unreadable: [...app.search.unreadable] };
  const changed = Object.keys(partial).filter((k) => input[k] !== /** @type {Record<string, unknown>} */ (before)[k]);
  if (!changed.length) {
    app.settingsNote = null;
    app.emit('notes');
    return '';
  }
  const list = changed
    .map((k) => `${SETTING_NAMES[/** @type {keyof typeof SETTING_NAMES} */ (k)] ?? k} ${shown(k, /** @type {Record<string, unknown>} */ (before)[k])} → ${shown(k, input[k])}`)
    .join(', ');
  const text = `${source} changed the search settings: ${list}.`;
  /** @param {typeof before} to @param {import('./app.js').SettingsNote} note */
  const put = (to, note) => {
    Object.assign(app.search, { ...to, unreadable: [...to.unreadable] });
    app.settingsNote = note;
    app.emit('options', 'notes');
  };
  /** @type {import('./state.js').Command} */
  const step = {
    label: `the settings of ${source}`,
    undo: () => put(before, { text: `Your settings are back (before ${source}).`, undo: null, step: null }),
    redo: () => put(after, { text, undo, step }),
  };
  /** Undo the step, while it is the last one (later edits are undone first, with Ctrl+Z). */
  function undo() {
    if (lastStep(app) === step) app.model.undo();
  }
  app.model.record(step);
  app.settingsNote = { text, undo, step };
  app.emit('notes');
  return text;
}

/**
 * The last step in the undo history.
 * @param {AppState} app
 */
export function lastStep(app) {
  return app.model.undoStack[app.model.undoStack.length - 1] ?? null;
}

/**
 * The menus offer what the engine lists; a setting whose value is no longer offered falls back
 * to its default, or the first choice.
 * @param {AppState} app
 * @param {Record<string, unknown>} info  the engine's `info` answer
 */
export function applyInfo(app, info) {
  /** @param {unknown} v */
  const list = (v) => (Array.isArray(v) ? v.map(String) : Object.keys(v || {}));
  const lists = {
    method: list(info.methods),
    diagonal: list(info.diagonal),
    costs: list(info.costs),
    heuristic: list(info.heuristics),
    open_list: list(info.open_lists),
    stop: list(info.stop),
  };
  if (info.limits && typeof info.limits === 'object') app.limits = /** @type {Record<string, Record<string, unknown>>} */ (info.limits);
  const input = /** @type {Record<string, unknown>} */ (app.search);
  for (const [name, values] of Object.entries(lists)) {
    app.choices[name] = values;
    const fallback = String(/** @type {Record<string, unknown>} */ (DEFAULT_OPTIONS)[name]);
    if (!values.includes(String(input[name]))) input[name] = values.includes(fallback) ? fallback : values[0];
  }
  app.emit('choices', 'options');
}

/**
 * Whether a method plans legal curves itself (the directional lattice, the hybrid): it takes the
 * unit's width, radius and reversing but no turning method, and its result carries segments.
 * The core's `info.limits` says so when it lists `directional`; until then, by its name.
 * @param {AppState} app
 * @param {string} method
 */
export function plansCurves(app, method) {
  const lim = app.limits[method];
  if (lim && typeof lim.directional === 'boolean') return lim.directional;
  return /^directional\d+$/.test(method) || method === 'hybrid';
}

/**
 * Whether a method can plan for people (the core's `people` option: a tight radius and a strong
 * turn penalty): one that plans curves and charges turns (its `info.limits`).
 * @param {AppState} app
 * @param {string} method
 */
export function plansForPeople(app, method) {
  return plansCurves(app, method) && app.limits[method]?.turn_penalty === true;
}

/**
 * A method's name for people: the lab's own for the methods it has always had, else the core's
 * label from `info.limits`, else the name itself.
 * @param {AppState} app
 * @param {string} method
 */
export function methodLabel(app, method) {
  const lim = app.limits[method];
  return LABELS.method[method] ?? (lim && typeof lim.label === 'string' ? lim.label : method);
}
