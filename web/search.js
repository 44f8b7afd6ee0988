// @ts-check
/**
 * Searching: the Find path command and Pinter's Figure 1. A search reads the settings from the
 * app state, runs in the engine (the worker), and puts its result in the state: the last result,
 * the search drawn (explored tiles, path, realistic path), the replay, and the status line; then
 * the unit drives the path. The main thread never searches itself.
 *
 * @module search
 */

import { hasPath } from './app.js';
import { benchVerdict, scenarioFor } from './scenarios.js';
import { LEGAL_TURNING, parseUnit, readOptions, scoreFormat, unitOptions } from './controls.js';
import { CancelledError } from './engine.js';
import { COMPARE_COLORS } from './view/colors.js';
import { dropReplay, startDrive } from './playback.js';
import { Replay } from './replay.js';
import { SegmentPath } from './segments.js';
import { endOf, readHeadings } from './headings.js';
import { methodLabel, plansCurves, plansForPeople } from './settings.js';
import { readFans, readStages, tilesOfFans } from './view/stages.js';
import { fixed, fmt, messageOf, plural } from './util.js';
import { afterSearch, withCode } from './python.js';
import { fallbackOf, resultStatus } from './verdict.js';
import { searchGraph } from './graphsearch.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./app.js').LastResult} LastResult */
/** @typedef {import('./app.js').ComparedPlan} ComparedPlan */
/** @typedef {import('./app.js').Planned} Planned */
/** @typedef {import('./engine.js').Engine} Engine */
/** @typedef {import('./engine.js').SearchResult} SearchResult */
/** @typedef {[number, number]} Tile */

/** The core records a search's per-tile detail (its replay) up to this many expansions. */
export const TRACE_LIMIT = 50_000;

/**
 * The settings as they would be sent, and every reason they cannot be.
 * @param {AppState} app
 */
export function readSettings(app) {
  const { options, errors } = readOptions(app.search);
  const unit = parseUnit(app.unitInput);
  const headings = readHeadings(app.unitInput);
  const problems = [...Object.values(errors), ...Object.values(unit.errors), ...Object.values(headings.errors), ...app.costErrors.values()];
  return { options, unit: unit.values, headings, problems };
}

/**
 * The options of one plan: the search settings with the method asked, and the unit's options
 * for it: a method that plans curves itself takes the unit's width, radius and reversing and no
 * turning method (for people: the core's radius and turn penalty, `people: true`); the others the turning
 * method asked (null: the tile path).
 * @param {AppState} app
 * @param {ReturnType<typeof readSettings>} settings
 * @param {{method?: string, turning?: string | null, width?: number}} [ask]  a method, a turning method or a width
 *   instead of the chosen ones
 */
export function planOptions(app, settings, ask = {}) {
  const method = ask.method ?? settings.options.method;
  const u = { ...settings.unit, width: ask.width ?? settings.unit.width };
  if (plansCurves(app, method)) {
    /** @type {{width?: number, radius?: number, can_reverse: boolean, people?: boolean}} */
    const unit = { can_reverse: u.can_reverse };
    if (u.width !== null) unit.width = u.width;
    if (app.unitInput.people && plansForPeople(app, method)) {
      // The core's people values apply only where none is given: send no radius nor turn cost.
      const { turn_penalty, ...search } = settings.options; // eslint-disable-line no-unused-vars
      return { options: { ...search, method, ...unit, people: true }, turning: null, curves: method };
    }
    unit.radius = u.radius;
    return { options: { ...settings.options, method, ...unit }, turning: null, curves: method };
  }
  const turning = ask.turning === undefined ? u.turning : ask.turning;
  return { options: { ...settings.options, method, ...unitOptions(u, turning) }, turning, curves: null };
}

/**
 * The map as the engine takes it: its cells, and its terrain costs as [[code, cost or null], ...].
 * @param {AppState} app
 */
export function wireMap(app) {
  const m = app.model;
  /** @type {Array<[number, number | null]>} */
  const terrainCosts = [];
  m.costs.forEach((c, code) => {
    if (c !== undefined) terrainCosts.push([code, c]);
  });
  return { width: m.width, height: m.height, version: m.version, cells: m.cells, terrainCosts };
}

/**
 * Run a search (or a comparison, when Compare is on) from start to goal on the current map,
 * show it and drive the unit.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {Tile} start
 * @param {Tile} goal
 * @returns {Promise<LastResult>}  rejects on error or cancel (the status line says which)
 */
export async function runSearch(app, engine, start, goal) {
  try {
    if (app.model.kind !== 'squares') return await searchGraph(app, engine); // hexes, waypoints: graphsearch.js
    if (app.compare.on) return await compare(app, engine, start, goal);
    return await search(app, engine, start, goal);
  } finally {
    app.searches++;
    app.emit('controls');
  }
}

/**
 * The Find path button and Enter: search between the markers once the engine is ready.
 * @param {AppState} app
 * @param {Engine} engine
 */
export function findFromUi(app, engine) {
  if (app.engineState !== 'ready') {
    app.findHint = 'Still loading the engine: Find path will be enabled in a moment. You can keep editing.';
    app.emit('controls');
    return;
  }
  runSearch(app, engine, [...app.model.start], [...app.model.goal]).catch(() => {
    /* shown in the status line */
  });
}

/**
 * Cancel the running search, if any.
 * @param {AppState} app
 * @param {Engine} engine
 * @returns {boolean} whether one was running
 */
export function cancelSearch(app, engine) {
  if (!app.searching) return false;
  engine.cancel();
  return true;
}

/**
 * One search, shown in full.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {Tile} start
 * @param {Tile} goal
 * @param {{method?: string, turning?: string | null}} [ask]  plan with this method or turning method instead
 *   of the chosen ones
 * @returns {Promise<LastResult>}
 */
async function search(app, engine, start, goal, ask = {}) {
  const settings = readSettings(app);
  // With the Python panel on: its code goes along, for a point unit's tile path with no headings.
  const { options, turning, curves, code } = withCode(app, planOptions(app, settings, ask));
  const python = code !== undefined;
  const ends = { start: endOf(start, python ? null : settings.headings.start), goal: endOf(goal, python ? null : settings.headings.goal) };
  if (settings.problems.length) {
    app.emit('options', 'unit', 'terrain');
    const message = `Not searching: ${settings.problems[0]}`;
    app.setStatus('error', message, 0);
    throw new Error(message);
  }
  if (app.searching) engine.cancel();
  app.searching = true;
  app.emit('controls');
  dropReplay(app, 'searching');
  const map = wireMap(app);
  const version = map.version;
  let expanded = 0;
  if (app.engineState !== 'ready') app.setStatus('searching', 'Waiting for the engine to load, then searching…', null);
  else app.setStatus('searching', 'Searching…', null);
  const t0 = performance.now();
  const seconds = () => fixed((performance.now() - t0) / 1000);
  /** @type {SearchResult} */
  let res;
  try {
    res = await engine.findPath({
      map,
      start: ends.start,
      goal: ends.goal,
      options,
      code,
      onProgress: (p) => {
        expanded = p.expanded;
        if (app.searching) app.setStatus('searching', `Searching… ${plural(p.expanded, 'node')} expanded, ${fmt(p.open)} open (${seconds()} s)`, null);
      },
    });
  } catch (e) {
    if (code !== undefined && !(e instanceof CancelledError)) afterSearch(app, e, null);
    app.noReplay = e instanceof CancelledError ? 'cancelled' : 'failed';
    app.emit('replay');
    if (e instanceof CancelledError) {
      app.result = { status: 'cancelled', expanded, start, goal, version, ends, curves };
      // A newer search may already own the status line.
      if (!app.searching || engine.current === null) {
        app.searching = false;
        app.setStatus('cancelled', `Search cancelled after ${plural(expanded, 'node')} expanded (${seconds()} s).`, 0);
      }
    } else {
      app.searching = false;
      app.result = { status: 'error', message: messageOf(e), start, goal, version };
      app.setStatus('error', `Error: ${messageOf(e)}`, 0);
    }
    app.emit('controls');
    throw e;
  }
  app.searching = false;
  if (code !== undefined) afterSearch(app, null, res);
  // An edit or an undo while it ran: the answer is for the map before it, and says so.
  const edited = app.model.version !== version;
  const out = showResult(app, res, { start, goal, version, width: map.width, height: map.height, turning, curves, costs: options.costs, edited, trace: options.trace });
  out.fallback = fallbackOf(app, res, options);
  out.ends = ends;
  const width = options.width;
  app.unit.width = turning || curves ? (width ?? 1) : (width ?? null);
  const said = resultStatus(app, res, out, { radius: options.radius, edited });
  app.setStatus(said.state, said.text, 1);
  app.emit('controls');
  return out;
}

/**
 * Put a finished search in the state: the last result, the search drawn, its replay; start the unit.
 * @param {AppState} app
 * @param {SearchResult} res
 * @param {{start: Tile, goal: Tile, version: number, width: number, height: number, turning: string | null,
 *          curves: string | null, costs: string, edited: boolean, trace: boolean}} asked  what was searched; curves:
 *   the method that plans curves itself; edited: the map changed while it ran; trace: whether it was recorded
 * @returns {LastResult}
 */
function showResult(app, res, asked) {
  const { start, goal, version, turning, curves } = asked;
  const path = Array.isArray(res.path) ? res.path.map((p) => /** @type {Tile} */ ([p[0], p[1]])) : [];
  const scenario = scenarioFor(app, start, goal);
  /** @type {LastResult} */
  const out = {
    status: res.status,
    path,
    cost: res.cost ?? null,
    length: res.length,
    expanded: res.expanded,
    ms: res.ms,
    optimal: res.optimal,
    message: res.message,
    closedCount: res.closed_count ?? 0,
    openCount: res.open_count ?? 0,
    start,
    goal,
    version,
    replay: false,
    optimalLength: scenario ? scenario.optimal : null,
    matchesOptimal: null,
    turning,
    curves,
    method: res.method,
    edited: asked.edited,
  };
  /** @type {Planned | null} */
  let planned = null;
  if ((turning || curves) && Array.isArray(res.segments) && hasPath(res.status)) {
    out.segments = res.segments;
    out.legal = res.legal ?? null;
    out.blocked = Array.isArray(res.blocked) ? res.blocked : [];
    out.speedLimits = Array.isArray(res.speed_limits) ? res.speed_limits : [];
    out.turns = res.turns ?? 0;
    out.segmentsLength = res.segments_length ?? null;
    try {
      const route = SegmentPath.fromJson(res.segments);
      planned = { route, limits: out.speedLimits, pivots: route.corners(), blocked: out.blocked };
      out.pivots = route.corners(1e-3, false).length; // turns on the spot (a gear change is not one)
    } catch (e) {
      console.warn(messageOf(e));
    }
  }
  /** @type {Replay | null} */
  let player = null;
  const m = app.model;
  const sized = asked.width === m.width && asked.height === m.height;
  // Directional searches' heading fans and the hybrid's steps: read as unknown, and checked.
  const extra = /** @type {{heading_fans?: unknown, stages?: unknown}} */ (res);
  const fans = sized ? readFans(extra.heading_fans, m.width * m.height) : null;
  if (res.trace && asked.width === m.width && asked.height === m.height) {
    try {
      player = new Replay(/** @type {any} */ (res.trace), m.width, m.height);
      player.seek(player.n);
    } catch (e) {
      console.warn(messageOf(e));
    }
  }
  out.replay = !!player;
  app.result = out;
  app.shown = {
    explored: player ? player.status : (res.explored ?? (fans ? tilesOfFans(fans) : null)),
    curves,
    fans,
    stages: readStages(extra.stages),
    scores: player,
    path,
    planned,
    version,
    from: start,
    start: [...m.start],
    goal: [...m.goal],
    format: scoreFormat(asked.costs),
  };
  const heading = readHeadings(app.unitInput).start;
  app.unit.placeAt(start, heading ?? 0);
  // A search of the map before an edit is not replayed on the map after it (the bar says why).
  app.replay = player && !asked.edited ? { player, driven: false, owed: 0, last: 0 } : null;
  app.noReplay = asked.edited ? 'edited' : !asked.trace ? 'off' : res.expanded > TRACE_LIMIT ? 'too_large' : 'unrecorded';
  // A replayed search drives whatever path it drew (a partial one too), as its end is shown;
  // a path for the map before an edit is not driven.
  if (path.length && (player || hasPath(res.status)) && !asked.edited) {
    startDrive(app);
    if (app.replay) app.replay.driven = true;
  }
  if (scenario) {
    const verdict = benchVerdict(hasPath(res.status) ? res.length : null, scenario.optimal);
    out.matchesOptimal = verdict.ok;
    app.benchNote = verdict;
  }
  app.emit('replay', 'bench', 'compare');
  return out;
}

/** The Directional A* planned for e. when the chosen method plans no curves itself. */
const COMPARE_DIRECTIONAL = 'directional24';

/**
 * Changes of direction along a tile path.
 * @param {Tile[]} tiles
 */
function tileTurns(tiles) {
  let turns = 0;
  for (let i = 2; i < tiles.length; i++) {
    const a = [tiles[i - 1][0] - tiles[i - 2][0], tiles[i - 1][1] - tiles[i - 2][1]];
    const b = [tiles[i][0] - tiles[i - 1][0], tiles[i][1] - tiles[i - 1][1]];
    if (a[0] !== b[0] || a[1] !== b[1]) turns++;
  }
  return turns;
}

/**
 * One plan of Pinter's Figure 1 as its legend and the map show it.
 * @param {{key: string, label: string}} p
 * @param {SearchResult} res
 * @param {boolean} curved  whether it was planned as lines and arcs
 * @returns {ComparedPlan}
 */
function comparedPlan(p, res, curved) {
  const found = hasPath(res.status);
  const tiles = Array.isArray(res.path) ? res.path.map((q) => /** @type {Tile} */ ([q[0], q[1]])) : [];
  const route = curved && found && Array.isArray(res.segments) ? SegmentPath.fromJson(res.segments) : null;
  return {
    key: p.key,
    label: p.label,
    color: COMPARE_COLORS[/** @type {keyof typeof COMPARE_COLORS} */ (p.key)],
    visible: true,
    status: res.status,
    length: found ? (route ? (res.segments_length ?? route.length) : res.length) : null,
    turns: found ? (route ? (res.turns ?? 0) : tileTurns(tiles)) : null,
    // The tile path is planned for the same body (clearance A*): it never touches a wall.
    legal: found ? (route ? (res.legal ?? null) : true) : false,
    message: res.message || '',
    route,
    tiles: route ? null : tiles,
    blocked: route && Array.isArray(res.blocked) ? res.blocked : [],
  };
}

/**
 * Pinter's Figure 1, live: the same query planned five ways, one after the other through the
 * engine (a. raw A*, b. smoothed, c. smoothed with turns ignoring walls, d. the chosen legal
 * turning method, e. Directional A*: the chosen method when it plans curves itself, else
 * Directional-24), drawn together. The chosen method's plan is the search shown in full, and the
 * unit drives it: e. when a directional method is chosen, else d.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {Tile} start
 * @param {Tile} goal
 * @returns {Promise<LastResult>}
 */
async function compare(app, engine, start, goal) {
  const settings = readSettings(app);
  if (settings.problems.length) return search(app, engine, start, goal); // reports the problem, sends nothing
  const u = settings.unit;
  const chosen = u.turning && LEGAL_TURNING.includes(u.turning) ? u.turning : 'tighter';
  const picked = settings.options.method;
  const directional = plansCurves(app, picked) ? picked : COMPARE_DIRECTIONAL;
  // a.-d. are A*-based (the chosen method, unless it plans curves itself).
  const tileMethod = plansCurves(app, picked) ? 'astar' : picked;
  const width = u.width ?? 1;
  const plans = [
    { key: 'raw', label: 'A* (tile path)', ask: { method: tileMethod, turning: null, width } },
    { key: 'smooth', label: 'Smoothed', ask: { method: tileMethod, turning: 'smooth', width } },
    { key: 'ignore', label: 'Smoothed + turns, walls ignored', ask: { method: tileMethod, turning: 'ignore', width } },
    { key: 'chosen', label: `Legal: ${chosen}`, ask: { method: tileMethod, turning: chosen, width } },
    { key: 'directional', label: methodLabel(app, directional), ask: { method: directional, width } },
  ];
  const main = plansCurves(app, picked) ? 'directional' : 'chosen';
  const ends = { start: endOf(start, settings.headings.start), goal: endOf(goal, settings.headings.goal) };
  app.compare.plans = null;
  app.emit('compare');
  /** @type {Map<string, ComparedPlan>} */
  const done = new Map();
  const map = wireMap(app);
  for (const p of plans) {
    if (p.key === main) continue;
    app.setStatus('searching', `Compare: planning ${p.label}… (${done.size + 1} of ${plans.length})`, null);
    app.searching = true;
    app.emit('controls');
    const { options, turning, curves } = planOptions(app, settings, p.ask);
    /** @type {SearchResult} */
    let res;
    try {
      res = await engine.findPath({ map, start: ends.start, goal: ends.goal, options: { ...options, trace: false } });
    } catch (e) {
      app.searching = false;
      app.emit('controls');
      if (e instanceof CancelledError) app.setStatus('cancelled', 'Compare cancelled.', 0);
      else app.setStatus('error', `Error: ${messageOf(e)}`, 0);
      throw e;
    }
    done.set(p.key, comparedPlan(p, res, !!(turning || curves)));
  }
  app.searching = false;
  const ask = /** @type {(typeof plans)[number]} */ (plans.find((p) => p.key === main)).ask;
  const out = await search(app, engine, start, goal, { method: ask.method, turning: main === 'chosen' ? chosen : undefined });
  const found = hasPath(out.status);
  const planned = app.shown?.planned ?? null;
  done.set(main, {
    key: main,
    label: /** @type {(typeof plans)[number]} */ (plans.find((p) => p.key === main)).label,
    color: COMPARE_COLORS[main],
    visible: true,
    status: out.status,
    length: found ? (out.segmentsLength ?? out.length ?? null) : null,
    turns: found ? (out.turns ?? 0) : null,
    legal: found ? (out.legal ?? null) : false,
    message: out.message || '',
    route: planned ? planned.route : null,
    tiles: planned ? null : out.path || null,
    blocked: out.blocked || [],
  });
  app.compare.plans = plans.map((p) => /** @type {ComparedPlan} */ (done.get(p.key)));
  app.setStatus(app.status.state || 'found', `Compare (Pinter's Figure 1): ${plans.length} plans drawn · ${app.status.text}`, 1);
  app.emit('compare');
  return out;
}
