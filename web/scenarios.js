// @ts-check
/**
 * Moving AI scenarios: the list offered for the map shown, the one chosen (it sets the start and
 * the goal, one undo step), and the verdict of a search on it against the optimal length.
 * Commands on the app state; panels/bench.js shows them.
 *
 * @module scenarios
 */

import { sameTile } from './state.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./app.js').Scenario} Scenario */
/** @typedef {[number, number]} Tile */

/**
 * Whether a length matches a Moving AI optimal length, which the files print with 2 to 8
 * decimals (compared as the benchmark README advises).
 * @param {number | null} length  null: no path was found
 * @param {number} optimal
 * @returns {{ok: boolean, text: string}}  text like "length 61.33 (optimal 61.33 ✓)"
 */
export function benchVerdict(length, optimal) {
  if (length === null) return { ok: false, text: `no path (optimal ${optimal.toFixed(2)} \u2717)` };
  const tol = Math.max(1e-4 * optimal, 0.005);
  const diff = length - optimal;
  if (Math.abs(diff) <= tol) return { ok: true, text: `length ${length.toFixed(2)} (optimal ${optimal.toFixed(2)} \u2713)` };
  const pct = optimal > 0 ? ` ${((100 * diff) / optimal).toFixed(1)}%` : '';
  return {
    ok: false,
    text: `length ${length.toFixed(2)} (optimal ${optimal.toFixed(2)} \u2717 ${diff > 0 ? '+' : ''}${diff.toFixed(2)},${pct} ${diff > 0 ? 'longer' : 'shorter'})`,
  };
}

/**
 * The chosen scenario, if start and goal are its.
 * @param {AppState} app
 * @param {Tile} start
 * @param {Tile} goal
 */
export function scenarioFor(app, start, goal) {
  const sc = app.bench?.chosen;
  return sc && sameTile(sc.start, start) && sameTile(sc.goal, goal) ? sc : null;
}

/**
 * The markers moved (a drag, undo, a choice): choose the scenario they match, and say what a
 * search would be judged against, unless the verdict of a search on it stands.
 * @param {AppState} app
 */
export function followMarkers(app) {
  const bench = app.bench;
  if (!bench) return;
  const m = app.model;
  const match = bench.scenarios.find((s) => sameTile(s.start, m.start) && sameTile(s.goal, m.goal));
  if (match) bench.chosen = match;
  const sc = scenarioFor(app, m.start, m.goal);
  const r = app.result;
  const searched = !!sc && !!r && r.version === m.version && sameTile(r.start, sc.start) && sameTile(r.goal, sc.goal);
  if (!searched) {
    const text = sc ? `optimal length ${sc.optimal.toFixed(2)}: press Enter to search` : bench.chosen ? 'Start or goal moved: not the scenario any more.' : '';
    app.benchNote = { text, ok: null };
  }
  app.emit('bench');
}

/**
 * Offer a scenario list for the map shown, and choose the first of the hardest bucket (the
 * longest paths).
 * @param {AppState} app
 * @param {string} name
 * @param {Scenario[]} scenarios
 */
export function setScenarios(app, name, scenarios) {
  app.bench = { name, scenarios, chosen: null };
  const hardest = Math.max(...scenarios.map((s) => s.bucket));
  chooseBucket(app, hardest);
}

/**
 * Choose a bucket: its first scenario.
 * @param {AppState} app
 * @param {number} bucket
 */
export function chooseBucket(app, bucket) {
  const first = app.bench?.scenarios.find((s) => s.bucket === bucket);
  if (first) chooseScenario(app, first.id);
}

/**
 * Choose a scenario: its start and goal become the markers (one undo step).
 * @param {AppState} app
 * @param {number} id
 */
export function chooseScenario(app, id) {
  const bench = app.bench;
  const sc = bench?.scenarios.find((s) => s.id === id);
  if (!bench || !sc) return;
  bench.chosen = sc;
  app.model.setMarkers(sc.start, sc.goal, `choose scenario ${id}`);
  followMarkers(app);
}

/** No scenarios for the map shown. @param {AppState} app */
export function clearScenarios(app) {
  app.bench = null;
  app.benchNote = { text: '', ok: null };
  app.emit('bench');
}
