// @ts-check
/**
 * What the page says about a finished search: the status line's words, built only from the
 * result's typed fields (status, method, optimal, legal, the pivots of the route) and never from
 * its message text. Three things it must say honestly: a result for a map the user has edited
 * since ("for the map before your edit"), a jump search the core ran as A* instead (and why, from
 * the method's limits in the engine's `info`), and a path whose unit pivots in place at corners.
 *
 * @module verdict
 */

import { label } from './controls.js';
import { methodLabel, plansCurves } from './settings.js';
import { fixed, plural } from './util.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./app.js').LastResult} LastResult */
/** @typedef {import('./engine.js').SearchResult} SearchResult */
/** @typedef {import('./controls.js').SearchOptions} SearchOptions */

/**
 * Whether the map's passable tiles all cost the same (what the jump searches need).
 * @param {AppState} app
 */
export function uniformTerrain(app) {
  const { cells, costs } = app.model;
  /** @type {Set<number>} */
  const seen = new Set();
  const found = new Set();
  for (let i = 0; i < cells.length; i++) {
    const code = cells[i];
    if (seen.has(code)) continue;
    seen.add(code);
    const c = costs[code];
    if (typeof c === 'number' && c > 0) found.add(c);
    if (found.size > 1) return false;
  }
  return true;
}

/**
 * Why a method cannot plan with these options on this map, from its limits in the engine's
 * `info` (the core's registry); '' when nothing in them rules it out.
 * @param {AppState} app
 * @param {{method: string, neighbours: number, diagonal: string}} options
 */
export function methodMisfit(app, options) {
  const lim = /** @type {{neighbours?: unknown, diagonal?: unknown, terrain?: unknown} | undefined} */ (app.limits[options.method]);
  // A method that plans curves has its own moves (the lattice's, the hybrid's): the grid's settings do not apply.
  if (!lim || plansCurves(app, options.method)) return '';
  const name = label('method', options.method);
  if (Array.isArray(lim.neighbours) && !lim.neighbours.includes(options.neighbours)) {
    return `${name} needs ${lim.neighbours.join(' or ')} neighbours (${options.neighbours} chosen)`;
  }
  if (Array.isArray(lim.diagonal) && !lim.diagonal.includes(options.diagonal)) {
    const wanted = lim.diagonal.map((d) => `"${label('diagonal', String(d))}"`).join(' or ');
    return `${name} needs the diagonal rule ${wanted} ("${label('diagonal', options.diagonal)}" chosen)`;
  }
  if (lim.terrain === false && !uniformTerrain(app)) return `${name} needs one cost for all open terrain (this map mixes costs)`;
  return '';
}

/** What failed in the hybrid, by the step its result's `stages.failed` names. */
const HYBRID_FAILED = Object.freeze(/** @type {Record<string, string>} */ ({
  astar: 'its 4-neighbour A* found no path',
  span: "Smoothing48's failure points were more than 12 tiles apart",
  patch: 'its Directional-8 patch found no path',
}));

/**
 * When the core planned with another method than the one asked (typed: the result's `method`),
 * the sentence saying so and why.
 * @param {AppState} app
 * @param {SearchResult} res
 * @param {{method: string, neighbours: number, diagonal: string}} options  as sent
 * @returns {{ran: string, asked: string, reason: string} | null}
 */
export function fallbackOf(app, res, options) {
  if (!res.method || res.method === options.method) return null;
  if (plansCurves(app, options.method)) {
    // The hybrid falls back to Directional-24 by design when a step fails and the goal is reachable.
    const failed = /** @type {{stages?: {failed?: unknown} | null}} */ (res).stages?.failed;
    const step = typeof failed === 'string' ? (HYBRID_FAILED[failed] ?? `its step "${failed}" failed`) : 'its own steps found no path';
    return { ran: res.method, asked: options.method, reason: `${step}, and the goal is reachable` };
  }
  const why = methodMisfit(app, options) || `${methodLabel(app, options.method)} does not apply to this map`;
  return { ran: res.method, asked: options.method, reason: why };
}

/**
 * The status line for a finished search.
 * @param {AppState} app
 * @param {SearchResult} res
 * @param {LastResult} out
 * @param {{radius?: number, edited: boolean}} asked  edited: the map changed while it ran
 * @returns {{state: string, text: string}}
 */
export function resultStatus(app, res, out, asked) {
  const stats = `${plural(res.expanded, 'node')} expanded · ${fixed(res.ms)} ms`;
  const bench = out.optimalLength != null ? app.benchNote.text : '';
  const path = out.path ?? [];
  const width = app.unit.width;
  const fb = out.fallback;
  const ranAs = fb ? ` Planned with ${methodLabel(app, fb.ran)} instead of ${methodLabel(app, fb.asked)}: ${fb.reason}.` : '';
  const before = asked.edited ? ' for the map before your edit' : '';
  const again = asked.edited ? ' The map has changed since: press Enter to search again.' : '';
  /** @type {{state: string, text: string}} */
  let s;
  if (res.status === 'not_legal') {
    s = { state: 'no_path', text: `Path found${before} but ${res.message || 'not legal for this unit'} · ${stats}` };
  } else if (res.status === 'found' && app.shown?.planned) {
    const limits = out.speedLimits ?? [];
    const slow = limits.length ? ` · slows down in ${plural(limits.length, 'stretch', 'stretches')}` : '';
    // A directional path's turns are its arcs (the core counts no corners in it).
    const turns = out.curves ? '' : `, ${plural(out.turns ?? 0, 'turn')}`;
    const body = `length ${fixed(out.segmentsLength ?? res.length, 2)}${turns}${slow} · ${stats}`;
    const pivots = out.pivots ?? 0;
    s = pivots
      ? { state: 'found', text: `Path (${out.turning})${before}: the unit stops and pivots in place at ${plural(pivots, 'corner')} (no turning arc there) · ${body}` }
      : { state: 'found', text: `Legal path (${out.curves ? methodLabel(app, res.method ?? out.curves) : out.turning})${before}: ${body}` };
  } else if (res.status === 'found' && path.length) {
    const quality = asked.edited ? '' : res.optimal === true ? ' (shortest)' : res.optimal === false ? ' (not guaranteed shortest)' : '';
    const length = bench || `length ${fixed(res.length, 1)}`;
    s = { state: 'found', text: `Path found${quality}${before}: ${plural(path.length, 'tile')}, ${length}, cost ${fixed(res.cost ?? NaN, 1)} · ${stats}` };
  } else if (res.status === 'no_path' || res.status === 'unreachable') {
    const body = width ? ` for a unit ${fixed(width, 2)} tile${width === 1 ? '' : 's'} wide${out.turning ? ` turning on radius ${asked.radius}` : ''}` : '';
    s = { state: 'no_path', text: `No path${body}${before}: the goal cannot be reached from the start · ${stats}${bench ? ` · ${bench}` : ''}` };
  } else {
    const why = res.message ? `: ${res.message}` : '';
    s = { state: 'no_path', text: `No path (${res.status.replace(/_/g, ' ')})${before}${why} · ${stats}` };
  }
  return { state: asked.edited ? 'stale' : s.state, text: s.text + ranAs + again };
}

/**
 * The status line once the map is edited under a result: it is out of date, and what the unit did.
 * @param {'stopped' | 'replanning' | 'idle'} unit
 */
export function editedStatus(unit) {
  const what =
    unit === 'stopped'
      ? ' The unit stopped where it was (Unit: "On map edit").'
      : unit === 'replanning'
        ? ' Re-planning from where the unit is…'
        : '';
  return `Map edited: the result shown is out of date (drawn dimmed).${what} Press Enter to search again.`;
}
