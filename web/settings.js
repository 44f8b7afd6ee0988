// @ts-check
/**
 * Commands on the search settings: set some by name (the test API and the presets), and take
 * the menus' choices from the engine's `info` answer.
 *
 * @module settings
 */

import { DEFAULT_OPTIONS, readOptions } from './controls.js';

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
  const input = /** @type {Record<string, unknown>} */ (app.search);
  for (const [name, values] of Object.entries(lists)) {
    app.choices[name] = values;
    const fallback = String(/** @type {Record<string, unknown>} */ (DEFAULT_OPTIONS)[name]);
    if (!values.includes(String(input[name]))) input[name] = values.includes(fallback) ? fallback : values[0];
  }
  app.emit('choices', 'options');
}
