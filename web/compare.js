// @ts-check
/**
 * Compare mode: 2 to 4 search methods on the same query, run in the worker one after another
 * with the Search and Unit settings as they are and only the method changed, so each row is
 * what Find path gives for that method. Each run is recorded (its explored tiles and, up to the
 * core's trace limit, its expansions in order), which the race replays in step: the same
 * expansion index in every panel, a method that finished early staying shown finished.
 *
 * Commands on `app.methods`; panels/comparemode.js and view/multiples.js show it.
 *
 * @module compare
 */

import { hasPath } from './app.js';
import { CancelledError, EngineStoppedError } from './engine.js';
import { endOf } from './headings.js';
import { sliderToSpeed } from './playback.js';
import { Replay } from './replay.js';
import { planOptions, readSettings, wireMap } from './search.js';
import { SegmentPath } from './segments.js';
import { methodLabel } from './settings.js';
import { fixed, messageOf, plural } from './util.js';
import { METHOD_COLORS } from './view/colors.js';
import { readFans, tilesOfFans } from './view/stages.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./engine.js').Engine} Engine */
/** @typedef {import('./engine.js').SearchResult} SearchResult */
/** @typedef {[number, number]} Tile */

/** The fewest and the most methods compared at once. */
export const MIN_METHODS = 2;
export const MAX_METHODS = 4;

/**
 * One method's run in a comparison.
 * @typedef {Object} MethodRun
 * @property {string} method  the method asked
 * @property {string} label  its name for people
 * @property {string} color  its colour in the panels, the table and the chart
 * @property {'waiting' | 'running' | 'done' | 'cancelled' | 'error'} state
 * @property {string} status  the core's Status once done ('' before)
 * @property {string} ran  the method the core planned with (it may fall back, and says why in `message`)
 * @property {number | null} ms  the worker's time for the plan
 * @property {number | null} expanded
 * @property {number | null} length  the path's length (tiles)
 * @property {number | null} cost
 * @property {boolean | null} legal  whether the unit's body never overlaps a wall on it (null: no path)
 * @property {string} message  for people
 * @property {Tile[]} tiles  the tile path (empty for a method that plans curves: its path is lattice states)
 * @property {SegmentPath | null} route  the lines and arcs, when it planned them
 * @property {Array<[number, number]>} blocked  stretches of the route where the body overlaps a wall
 * @property {Uint8Array | null} explored  the final explored tiles (0 unseen, 1 open, 2 closed)
 * @property {Replay | null} replay  its expansions in order (null: not recorded, drawn finished)
 */

/**
 * The map a comparison ran on (a copy: later edits do not change what is drawn).
 * @typedef {{width: number, height: number, cells: Uint8Array, version: number, start: Tile, goal: Tile}} ComparedMap
 */

/**
 * Compare mode's state.
 * @typedef {Object} CompareMode
 * @property {string[]} chosen  the methods ticked, in the engine's order (0 to 4; a run needs 2 to 4)
 * @property {boolean} open  the comparison is shown over the map
 * @property {'side' | 'overlay'} layout  small multiples side by side, or every method on one map
 * @property {boolean} running
 * @property {ComparedMap | null} map
 * @property {MethodRun[] | null} runs
 * @property {string} error  why the last choice or run was refused ('' none)
 * @property {number} finished  comparisons settled (done, cancelled or failed): tests wait on it
 * @property {{k: number, playing: boolean, slider: number, last: number}} race  k: the expansion shown
 *   in every panel (fractional while playing); slider: the speed slider's position, 0..1000; last: its last frame
 */

/**
 * The methods a choice names, checked: a list of 2 to 4 distinct methods the engine offers.
 * Throws an Error saying what is wrong (and changes nothing).
 * @param {AppState} app
 * @param {unknown} names
 * @returns {string[]} in the engine's order
 */
export function checkChoice(app, names) {
  if (!Array.isArray(names)) throw new Error(`choose the methods as a list of names (got ${String(JSON.stringify(names)).slice(0, 40)})`);
  const offered = app.choices.method ?? [];
  const seen = new Set();
  for (const n of names) {
    if (typeof n !== 'string' || !offered.includes(n)) {
      throw new Error(`unknown method ${String(JSON.stringify(n)).slice(0, 40)}: the engine offers ${offered.join(', ')}`);
    }
    if (seen.has(n)) throw new Error(`${methodLabel(app, n)} is chosen twice`);
    seen.add(n);
  }
  if (names.length < MIN_METHODS) throw new Error(`choose at least ${MIN_METHODS} methods to compare (${names.length} chosen)`);
  if (names.length > MAX_METHODS) throw new Error(`choose at most ${MAX_METHODS} methods to compare (${names.length} chosen)`);
  return offered.filter((m) => seen.has(m));
}

/**
 * Choose the methods (from the API or a saved choice): all of them checked first.
 * @param {AppState} app
 * @param {unknown} names
 * @returns {string[]} the methods chosen now
 */
export function chooseMethods(app, names) {
  const chosen = checkChoice(app, names);
  app.methods.chosen = chosen;
  app.methods.error = '';
  app.emit('methods');
  return [...chosen];
}

/**
 * Tick or untick one method (a box in the panel). A fifth is refused with a message.
 * @param {AppState} app
 * @param {string} method
 * @param {boolean} on
 * @returns {boolean} whether the choice changed
 */
export function tickMethod(app, method, on) {
  const cm = app.methods;
  const has = cm.chosen.includes(method);
  if (on === has) return false;
  if (on && cm.chosen.length >= MAX_METHODS) {
    cm.error = `At most ${MAX_METHODS} methods: untick one before choosing ${methodLabel(app, method)}.`;
    app.emit('methods');
    return false;
  }
  const offered = app.choices.method ?? [];
  const next = on ? [...cm.chosen, method] : cm.chosen.filter((m) => m !== method);
  cm.chosen = offered.filter((m) => next.includes(m)).concat(next.filter((m) => !offered.includes(m)));
  cm.error = '';
  app.emit('methods');
  return true;
}

/**
 * A run waiting to start.
 * @param {AppState} app
 * @param {string} method
 * @param {number} i
 * @returns {MethodRun}
 */
function waitingRun(app, method, i) {
  return {
    method, label: methodLabel(app, method), color: METHOD_COLORS[i % METHOD_COLORS.length], state: 'waiting', status: '', ran: method,
    ms: null, expanded: null, length: null, cost: null, legal: null, message: '', tiles: [], route: null, blocked: [], explored: null, replay: null,
  };
}

/**
 * Fill a run from its result.
 * @param {MethodRun} run
 * @param {SearchResult} res
 * @param {ComparedMap} map
 * @param {boolean} curved  planned as lines and arcs (a turning method, or a method that plans curves)
 */
function finishRun(run, res, map, curved) {
  const found = hasPath(res.status);
  run.state = 'done';
  run.status = res.status;
  run.ran = typeof res.method === 'string' ? res.method : run.method;
  run.ms = res.ms;
  run.expanded = res.expanded;
  run.length = found ? res.length : null;
  run.cost = found ? (res.cost ?? null) : null;
  run.message = res.message || '';
  run.route = null;
  if (curved && found && Array.isArray(res.segments)) {
    try {
      run.route = SegmentPath.fromJson(res.segments);
    } catch (e) {
      run.message = `${run.message} (its curves could not be drawn: ${messageOf(e)})`.trim();
    }
  }
  // A method that plans curves lists lattice states in `path`, not neighbouring tiles.
  run.tiles = run.route || !Array.isArray(res.path) ? [] : res.path.map((p) => /** @type {Tile} */ ([p[0], p[1]]));
  run.blocked = run.route && Array.isArray(res.blocked) ? res.blocked : [];
  // A tile path is planned on the tiles the unit's body fits (clearance): legal by construction.
  run.legal = found ? (typeof res.legal === 'boolean' ? res.legal : true) : null;
  const size = map.width * map.height;
  const fans = readFans(/** @type {{heading_fans?: unknown}} */ (res).heading_fans, size);
  run.explored = res.explored instanceof Uint8Array && res.explored.length === size ? res.explored : fans ? tilesOfFans(fans) : null;
  run.replay = null;
  if (res.trace) {
    try {
      run.replay = new Replay(/** @type {any} */ (res.trace), map.width, map.height);
      run.replay.seek(run.replay.n);
    } catch (e) {
      console.warn(messageOf(e));
    }
  }
}

/**
 * Run the chosen methods on the query from S to G, one after another in the worker, and show
 * them. Refused (the comparison shown stays, `app.methods.error` says why) when the choice or the
 * settings cannot be run or the engine is not ready. Cancel (the Cancel button, Esc) or a new
 * search stops it between or inside runs; the methods finished stay shown.
 * @param {AppState} app
 * @param {Engine} engine
 * @returns {Promise<boolean>} whether every method ran
 */
export async function runCompare(app, engine) {
  const cm = app.methods;
  /** @param {string} why */
  const refuse = (why) => {
    cm.error = why;
    app.emit('methods');
    return false;
  };
  if (cm.running) return refuse('A comparison is running: wait for it, or Cancel it (Esc).');
  /** @type {string[]} */
  let methods;
  try {
    methods = checkChoice(app, cm.chosen);
  } catch (e) {
    const why = messageOf(e);
    return refuse(`${why[0].toUpperCase()}${why.slice(1)}.`);
  }
  if (app.engineState !== 'ready') return refuse('The engine is still loading: Compare will work in a moment.');
  if (app.model.kind !== 'squares') return refuse("Compare mode runs the methods on square maps: switch the Map panel's Kind back to squares.");
  const settings = readSettings(app);
  if (settings.problems.length) return refuse(`Not comparing: ${settings.problems[0]}`);
  if (app.searching) engine.cancel();
  const m = app.model;
  // A copy: an edit while it runs changes neither what the later methods search nor what is drawn.
  const wire = { ...wireMap(app), cells: m.cells.slice() };
  /** @type {ComparedMap} */
  const map = { width: wire.width, height: wire.height, cells: wire.cells, version: wire.version, start: [m.start[0], m.start[1]], goal: [m.goal[0], m.goal[1]] };
  const ends = { start: endOf(map.start, settings.headings.start), goal: endOf(map.goal, settings.headings.goal) };
  const runs = methods.map((method, i) => waitingRun(app, method, i));
  Object.assign(cm, { map, runs, running: true, open: true, error: '' });
  Object.assign(cm.race, { playing: false, k: 0 });
  app.searching = true;
  app.emit('methods', 'race', 'controls');
  const n = runs.length;
  let i = 0;
  try {
    for (; i < n; i++) {
      const run = runs[i];
      run.state = 'running';
      app.emit('methods');
      const say = (/** @type {string} */ more) => app.setStatus('searching', `Compare ${i + 1} of ${n}: ${run.label}…${more}`, i / n);
      say('');
      const { options, turning, curves } = planOptions(app, settings, { method: run.method });
      /** @type {SearchResult} */
      let res;
      try {
        res = await engine.findPath({
          map: wire,
          start: ends.start,
          goal: ends.goal,
          options: { ...options, trace: true },
          onProgress: (p) => {
            if (cm.running) say(` ${plural(p.expanded, 'node')} expanded`);
          },
        });
      } catch (e) {
        if (e instanceof CancelledError || e instanceof EngineStoppedError) throw e;
        // This method refused the settings (or failed): its row says why, the others still run.
        run.state = 'error';
        run.message = messageOf(e);
        continue;
      }
      finishRun(run, res, map, !!(turning || curves));
    }
  } catch (e) {
    for (const r of runs.slice(i)) r.state = 'cancelled';
    cm.running = false;
    cm.finished++;
    settleRace(app);
    // A newer search may already own the status line.
    if (!app.searching || engine.current === null) {
      app.searching = false;
      const kept = i ? ` ${plural(i, 'method')} finished ${i === 1 ? 'is' : 'are'} shown.` : '';
      if (e instanceof CancelledError) app.setStatus('cancelled', `Compare cancelled during ${runs[i]?.label ?? 'the last method'}.${kept}`, 0);
      else app.setStatus('error', `Error: compare stopped: ${messageOf(e)}.${kept}`, 0);
    }
    app.emit('methods', 'race', 'controls');
    return false;
  }
  cm.running = false;
  cm.finished++;
  app.searching = false;
  settleRace(app);
  app.setStatus(runs.some((r) => r.state === 'done') ? 'found' : 'error', summary(runs), 1);
  app.emit('methods', 'race', 'controls');
  return true;
}

/**
 * The status line after a comparison: which method was fastest and which expanded the fewest.
 * @param {MethodRun[]} runs
 */
function summary(runs) {
  const done = runs.filter((r) => r.state === 'done');
  const failed = runs.length - done.length;
  const least = (/** @type {(r: MethodRun) => number} */ key) => done.reduce((a, b) => (key(b) < key(a) ? b : a));
  let text = `Compared ${plural(runs.length, 'method')}`;
  if (done.length) {
    const fast = least((r) => r.ms ?? Infinity);
    const few = least((r) => r.expanded ?? Infinity);
    text += `: fastest ${fast.label} (${fixed(fast.ms, 2)} ms), fewest expanded ${few.label} (${plural(few.expanded ?? 0, 'node')})`;
  }
  if (failed) text += `; ${plural(failed, 'method')} failed (see the table)`;
  return `${text}.`;
}

/** @param {AppState} app  the race at its end, paused (after a comparison) */
function settleRace(app) {
  const race = app.methods.race;
  race.playing = false;
  race.k = raceLength(app);
  applyRace(app);
}

/**
 * The race's length: the most expansions a recorded run made.
 * @param {AppState} app
 */
export function raceLength(app) {
  return (app.methods.runs ?? []).reduce((most, r) => Math.max(most, r.replay ? r.replay.n : 0), 0);
}

/** @param {AppState} app  every recorded run shows the race's expansion (its own end, when it had fewer) */
function applyRace(app) {
  const k = Math.floor(app.methods.race.k);
  for (const r of app.methods.runs ?? []) r.replay?.seek(Math.min(k, r.replay.n));
}

/**
 * Play the race (from the start when it is at its end), or pause it.
 * @param {AppState} app
 */
export function toggleRace(app) {
  const race = app.methods.race;
  const n = raceLength(app);
  if (race.playing) race.playing = false;
  else if (n > 0 && !app.methods.running) {
    if (race.k >= n) race.k = 0;
    race.playing = true;
    race.last = performance.now();
  }
  applyRace(app);
  app.emit('race');
}

/**
 * Show expansion k in every panel (clamped), pausing the race.
 * @param {AppState} app
 * @param {number} k
 */
export function seekRace(app, k) {
  const race = app.methods.race;
  race.playing = false;
  race.k = Math.max(0, Math.min(raceLength(app), Math.round(k)));
  applyRace(app);
  app.emit('race');
}

/**
 * Set the race's speed from its slider (0..1000: 1 to 2000 expansions a second, as the replay's).
 * @param {AppState} app
 * @param {number} v
 */
export function setRaceSpeed(app, v) {
  app.methods.race.slider = Math.max(0, Math.min(1000, v));
  app.emit('race');
}

/** @param {AppState} app  expansions a second */
export const raceSpeed = (app) => sliderToSpeed(app.methods.race.slider);

/**
 * Move a playing race to the time `now` (called every frame).
 * @param {AppState} app
 * @param {number} now  performance.now()
 */
export function advanceRace(app, now) {
  const race = app.methods.race;
  if (!race.playing) return;
  const n = raceLength(app);
  const before = Math.floor(race.k);
  race.k = Math.min(n, race.k + ((now - race.last) / 1000) * raceSpeed(app));
  race.last = now;
  if (race.k >= n) race.playing = false;
  if (Math.floor(race.k) !== before || !race.playing) {
    applyRace(app);
    app.emit('race');
  }
}

/**
 * Side by side (a small map per method) or overlaid (one map: each method's closed tiles
 * outlined and its path, in its colour).
 * @param {AppState} app
 * @param {'side' | 'overlay'} layout
 */
export function setLayout(app, layout) {
  app.methods.layout = layout === 'overlay' ? 'overlay' : 'side';
  app.emit('methods', 'race');
}

/**
 * Show or hide the comparison over the map.
 * @param {AppState} app
 * @param {boolean} open
 */
export function showCompare(app, open) {
  const cm = app.methods;
  cm.open = open && !!cm.runs;
  if (!cm.open) cm.race.playing = false;
  app.emit('methods', 'race');
}
