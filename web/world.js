// @ts-check
/**
 * Units in motion: the commands on the app state's world (`app.world`) that talk to the world
 * in the worker (start it on the lab's map, place, order, remove units, play, pause, step, load a
 * scenario preset), and the worker's `world_state` answers applied to the state.
 *
 * The world lives in the worker; the page keeps what it shows (the units' last two states, to
 * draw in between, their paths and claimed tiles, recent avoidance events, a team's known tiles)
 * and what it cannot ask again (the orders it gave, for the unit panel). Placing and removing units
 * are steps of the map's undo history. When the map is edited, or the engine restarts, the world
 * is started again with the units where they stood (their orders are dropped, and it says so).
 *
 * Tile units (centres at +0.5), y down, headings in radians (0 = +x, pi/2 = +y).
 *
 * @module world
 */

import { openRows } from './io/maps.js';
import { SegmentPath } from './segments.js';
import { fixed, messageOf, plural } from './util.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./app.js').LabUnit} LabUnit */
/** @typedef {import('./engine.js').Engine} Engine */
/** @typedef {import('./protocol.js').WorldStateMessage} WorldStateMessage */
/** @typedef {import('./protocol.js').WorldUnit} WorldUnit */

/** The teams units can be placed in (their colours: view/units.js). */
export const TEAMS = Object.freeze(['blue', 'red', 'green', 'gold']);
/** The simulation speeds offered (game seconds per second). */
export const SPEEDS = Object.freeze([0.25, 0.5, 1, 2, 4, 8]);
/** How long an avoidance event stays marked on the map, game seconds. */
export const EVENT_SHOW_S = 3;
/** The kinds, as the core names them (their sizes come from world_info). */
export const KINDS = Object.freeze(/** @type {const} */ (['tank', 'car', 'person']));

/**
 * Say something about the world, for people (the Units panel shows it). An error is said in the
 * status line too, at the top of the page, where it is seen while the hand is on the map (the
 * panel's message may be scrolled out of sight); the next message of the world replaces it there
 * while the status line still shows it.
 * @param {AppState} app
 * @param {string} text
 * @param {boolean} [error]
 */
export function say(app, text, error = false) {
  const last = app.world.message;
  app.world.message = { text, error };
  if (error) app.setStatus('error', text, app.status.progress);
  else if (last?.error && app.status.state === 'error' && app.status.text === last.text) {
    app.setStatus(app.engineState === 'ready' ? 'ready' : 'loading', text, app.status.progress);
  }
  app.emit('world');
}

/**
 * A failed world request: the core's message, and which unit or point it names when it does.
 * @param {AppState} app
 * @param {string} what  what was being done, e.g. "Could not place the tank"
 * @param {unknown} e
 */
function failed(app, what, e) {
  say(app, `${what}: ${messageOf(e)}`, true);
}

/** @param {AppState} app */
function view(app) {
  const w = app.world;
  return { claimed: w.showClaimed, paths: w.showPaths, team: w.fog && w.player ? w.player : null };
}

/**
 * Follow the engine's world states and the map: a new map ends the world, an edit starts it again.
 * @param {AppState} app
 * @param {Engine} engine
 */
export function followWorld(app, engine) {
  engine.onWorld = (msg) => {
    // A world the page has let go of (a new map) may still post a state or two: not shown.
    if (msg.type === 'world_state') {
      if (app.world.on) applyState(app, msg);
    } else if (msg.type === 'error') {
      app.world.running = false;
      say(app, `The world stopped: ${msg.message}`, true);
    }
  };
  app.model.subscribe((kind) => {
    const w = app.world;
    if (kind === 'load') {
      if (w.on && w.running) engine.request({ type: 'world_run', running: false }).catch(() => {});
      dropWorld(app);
    } else if ((kind === 'cells' || kind === 'costs') && w.on) {
      restartWorld(app, engine, 'The map changed, so the world started again with the units where they stood (their orders are dropped).');
    }
  });
}

/**
 * Forget the world (a new map): no units.
 * @param {AppState} app
 */
export function dropWorld(app) {
  const w = app.world;
  // what the panel last said was about the world there was (a unit placed, an order given)
  Object.assign(w, { on: false, units: [], running: false, time: 0, ticks: 0, events: [], known: null, metrics: null, preset: '', box: null, lag: 0, order: { kind: 'move', points: [] }, message: null });
  w.epoch++; // a restart or a load still on its way is for the old map
  w.selected.clear();
  app.emit('world');
}

/**
 * Apply a world_state from the worker.
 * @param {AppState} app
 * @param {WorldStateMessage} msg
 */
export function applyState(app, msg) {
  const w = app.world;
  const now = performance.now();
  if (msg.roster) {
    const old = new Map(w.units.map((u) => [u.id, u]));
    w.units = msg.roster.map((r) => {
      const before = old.get(r.id);
      return {
        id: r.id, kind: r.kind, team: r.team, width: r.width, radius: r.radius, topSpeed: r.speed,
        x: before?.x ?? 0, y: before?.y ?? 0, heading: before?.heading ?? 0, speed: 0,
        px: before?.x ?? NaN, py: before?.y ?? NaN, ph: before?.heading ?? 0,
        status: before?.status ?? 'idle', note: before?.note ?? 'idle', path: before?.path ?? null,
        claimed: [], orders: before?.orders ?? [],
      };
    });
    for (const id of [...w.selected]) if (!w.units.some((u) => u.id === id)) w.selected.delete(id);
    w.rosterVersion = msg.roster_version;
  }
  const a = msg.units;
  const codes = w.info?.status_codes ?? [];
  const whole = !!a && [a.x, a.y, a.heading, a.speed, a.status].every((v) => v && v.length === a.x.length);
  const n = whole ? Math.min(w.units.length, a.x.length) : 0;
  for (let i = 0; i < n; i++) {
    const u = w.units[i];
    u.px = Number.isNaN(u.px) ? a.x[i] : u.x;
    u.py = Number.isNaN(u.py) ? a.y[i] : u.y;
    u.ph = u.heading;
    u.x = a.x[i];
    u.y = a.y[i];
    u.heading = a.heading[i];
    u.speed = a.speed[i];
    const was = u.status;
    u.status = codes[a.status[i]] ?? 'idle';
    if (was === 'moving' && u.status === 'arrived' && u.orders.length) u.orders.shift();
    if (u.status === 'stuck' || u.status === 'failed') u.orders = []; // the world dropped them
  }
  if (msg.stepped === 0) for (const u of w.units) [u.px, u.py, u.ph] = [u.x, u.y, u.heading];
  const byId = new Map(w.units.map((u) => [u.id, u]));
  for (const [id, text] of msg.notes ?? []) {
    const u = byId.get(id);
    if (u) u.note = text;
  }
  if (msg.paths) {
    for (const [id, segs] of msg.paths) {
      const u = byId.get(id);
      if (!u) continue;
      try {
        u.path = segs && segs.length ? SegmentPath.fromJson(segs) : null;
      } catch {
        u.path = null;
      }
    }
  } else if (!w.showPaths) for (const u of w.units) u.path = null;
  for (const u of w.units) u.claimed = [];
  if (msg.claimed) {
    let k = 0;
    const { tiles, counts } = msg.claimed;
    for (let i = 0; i < Math.min(n, counts.length); i++) {
      w.units[i].claimed = Array.from(tiles.subarray(k, k + counts[i]));
      k += counts[i];
    }
  }
  for (const [t, unit, kind, x, y] of msg.events ?? []) w.events.push({ t, unit, kind, x, y });
  w.events = w.events.filter((e) => e.t >= msg.time - EVENT_SHOW_S && e.t <= msg.time + 1e-9).slice(-500);
  if (msg.known) w.known = msg.known.tiles;
  if (!w.fog || !w.player) w.known = null;
  if (msg.stepped > 0) {
    w.stateGap = Math.max(10, Math.min(250, now - w.stateAt));
    w.stateAt = now;
  } else w.stateAt = now - w.stateGap;
  w.time = msg.time;
  w.ticks = msg.ticks;
  w.dt = msg.dt;
  w.avoidance = msg.avoidance;
  const before = w.metrics;
  w.metrics = msg.metrics;
  const all = (/** @type {typeof before} */ m) => !!m && m.units > 0 && m.arrived === m.units;
  if (all(msg.metrics) && !all(before) && msg.stepped > 0) {
    const m = msg.metrics;
    say(app, `All ${plural(m.units, 'unit')} arrived: makespan ${fixed(m.makespan, 2)} s, sum of travel times ${fixed(m.travel_sum, 1)} s, deepest overlap ${fixed(m.deepest_overlap, 3)} tiles.`);
  }
  if (typeof msg.running === 'boolean') w.running = msg.running;
  // the speed is the page's own (every world_run sends it): a state the worker posted before the
  // last change would otherwise set it back, and [ ] would then step from a stale speed
  w.lag = msg.lag ?? 0;
  w.states++;
  app.emit('world');
}

/**
 * The kind's preset sizes from world_info.
 * @param {AppState} app
 * @param {string} kind
 */
export function kindSize(app, kind) {
  return app.world.info?.kinds[kind] ?? { width: 0.8, radius: 1, speed: 2 };
}

/**
 * Start a world on the lab's map and terrain costs (replacing the one there was), with these units in it.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {WorldUnit[]} [units]
 */
export async function startWorld(app, engine, units = []) {
  const w = app.world;
  const m = app.model;
  const fog = w.fog && !!w.info?.fog;
  /** @type {Array<[number, number | null]>} the lab's terrain costs (null: impassable) */
  const terrainCosts = [];
  m.costs.forEach((c, code) => {
    if (c !== undefined) terrainCosts.push([code, c]);
  });
  const msg = await engine.worldStart(
    { width: m.width, height: m.height, version: m.version, cells: m.cells, terrainCosts },
    { seed: w.seed, avoidance: w.avoidance, fog },
  );
  w.on = true;
  w.events = [];
  w.known = null;
  applyState(app, msg);
  if (units.length) await engine.request({ type: 'world_add', units });
  await refresh(app, engine, true);
}

/**
 * Ask the worker for the state as it is (everything again with `full`).
 * @param {AppState} app
 * @param {Engine} engine
 * @param {boolean} [full]
 */
export async function refresh(app, engine, full = false) {
  if (!app.world.on) return;
  await engine.request({ type: 'world_step', ticks: 0, ...view(app), full });
}

/**
 * The units as they stand, to place again.
 * @param {AppState} app
 * @param {LabUnit[]} units
 * @returns {WorldUnit[]}
 */
export function standing(app, units) {
  return units.map((u) => {
    /** @type {WorldUnit} */
    const spec = { id: u.id, start: [u.x, u.y, u.heading], team: u.team };
    if (u.kind) spec.kind = u.kind;
    else Object.assign(spec, { width: u.width, radius: u.radius, speed: u.topSpeed });
    return spec;
  });
}

/**
 * Start the world again on the map as it is now, with the units where they stand (paused; their
 * orders dropped). Units that no longer fit where they stand (a wall painted on them) are left out.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {string} why  said to the user
 */
export async function restartWorld(app, engine, why) {
  const w = app.world;
  const epoch = ++w.epoch;
  const specs = standing(app, w.units);
  w.running = false;
  for (const u of w.units) u.orders = [];
  try {
    await startWorld(app, engine, []);
    const lost = [];
    for (const spec of specs) {
      if (w.epoch !== epoch) return; // a newer map, restart or scenario took over
      try {
        await engine.request({ type: 'world_add', units: [spec] });
      } catch {
        lost.push(spec.id);
      }
    }
    if (w.epoch !== epoch) return;
    await refresh(app, engine, true);
    say(app, lost.length ? `${why} ${plural(lost.length, 'unit')} no longer fit where they stood and were taken off: ${lost.join(', ')}.` : why, lost.length > 0);
  } catch (e) {
    failed(app, 'The world could not start again', e);
  }
}

/**
 * Place a unit of the chosen kind and team on a point (one undo step). The core refuses a point in
 * a wall or too tight for the body, with its reason.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {number} x  tiles
 * @param {number} y
 */
export async function placeUnit(app, engine, x, y) {
  const w = app.world;
  const kind = w.tool === 'select' ? 'tank' : w.tool;
  const m = app.model;
  const tx = Math.floor(x);
  const ty = Math.floor(y);
  if (!m.inBounds(tx, ty)) return say(app, `(${fixed(x, 1)}, ${fixed(y, 1)}) is off the map.`, true);
  /** @type {WorldUnit} */
  const spec = { id: `${kind}-${w.nextId++}`, kind, team: w.team, start: [tx + 0.5, ty + 0.5, 0] };
  try {
    if (!w.on) await startWorld(app, engine);
    await engine.request({ type: 'world_add', units: [spec] });
  } catch (e) {
    return failed(app, `Could not place the ${kind} on tile (${tx}, ${ty})`, e);
  }
  w.selected = new Set([spec.id]);
  say(app, `Placed ${spec.id} (${w.team}) on tile (${tx}, ${ty}). Right-click somewhere to send it there.`);
  m.record({
    label: `place ${spec.id}`,
    undo: () => void removeUnits(app, engine, [spec.id], false),
    redo: () => void addUnits(app, engine, [spec]),
  });
  app.emit('controls');
}

/**
 * Put units back (redo of a placing, undo of a removal).
 * @param {AppState} app
 * @param {Engine} engine
 * @param {WorldUnit[]} specs
 */
async function addUnits(app, engine, specs) {
  try {
    if (!app.world.on) await startWorld(app, engine);
    await engine.request({ type: 'world_add', units: specs });
    say(app, `Put back ${specs.map((s) => s.id).join(', ')}.`);
  } catch (e) {
    failed(app, 'Could not put the units back', e);
  }
}

/**
 * Take units off the map; with `record`, one undo step that puts them back where they stood.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {string[]} ids
 * @param {boolean} [record]
 */
export async function removeUnits(app, engine, ids, record = true) {
  const w = app.world;
  const units = w.units.filter((u) => ids.includes(u.id));
  if (!units.length) return say(app, 'Select units first (click one, or drag a box round several).', true);
  const specs = standing(app, units);
  try {
    await engine.request({ type: 'world_remove', units: units.map((u) => u.id) });
  } catch (e) {
    return failed(app, 'Could not remove the units', e);
  }
  for (const u of units) w.selected.delete(u.id);
  say(app, `Removed ${units.map((u) => u.id).join(', ')}.${record ? ' Undo (Ctrl+Z) puts them back.' : ''}`);
  if (record) {
    app.model.record({
      label: `remove ${plural(units.length, 'unit')}`,
      undo: () => void addUnits(app, engine, specs),
      redo: () => void removeUnits(app, engine, specs.map((s) => s.id), false),
    });
    app.emit('controls');
  }
}

/**
 * Order the selected units to a point (right-click): move there, each to its own tile round it;
 * with `queue`, after what they do now.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {number} x
 * @param {number} y
 * @param {boolean} queue
 */
export async function orderSelected(app, engine, x, y, queue) {
  const w = app.world;
  const ids = [...w.selected].filter((id) => w.units.some((u) => u.id === id));
  if (!ids.length) return say(app, 'Select units first (click one, or drag a box round several), then right-click where they should go.', true);
  try {
    await engine.request({ type: 'world_order', units: ids, order: 'move', points: [[x, y]], queue, spread: ids.length > 1 });
  } catch (e) {
    return failed(app, `Could not order ${ids.length === 1 ? ids[0] : plural(ids.length, 'unit')} there`, e);
  }
  const words = `move to (${fixed(x, 1)}, ${fixed(y, 1)})`;
  for (const u of w.units) {
    if (!ids.includes(u.id)) continue;
    if (queue) u.orders.push(words);
    else u.orders = [words];
  }
  say(app, `${ids.length === 1 ? ids[0] : plural(ids.length, 'unit')}: ${words}${queue ? ', queued' : ''}.${w.running ? '' : ' Press Play (Space) to watch.'}`);
}

/**
 * Stop the selected units (they brake and forget their orders).
 * @param {AppState} app
 * @param {Engine} engine
 */
export async function stopSelected(app, engine) {
  const w = app.world;
  const ids = [...w.selected];
  if (!ids.length) return say(app, 'Select units first (click one, or drag a box round several).', true);
  try {
    await engine.request({ type: 'world_order', units: ids, order: 'stop' });
  } catch (e) {
    return failed(app, 'Could not stop them', e);
  }
  for (const u of w.units) if (ids.includes(u.id)) u.orders = [];
  say(app, `${ids.length === 1 ? ids[0] : plural(ids.length, 'unit')} stopped.`);
}

/**
 * Play or pause.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {boolean} running
 */
export async function setRunning(app, engine, running) {
  const w = app.world;
  if (!w.on) return say(app, 'There are no units yet: load a scenario or place some (Command units, then click the map).', true);
  try {
    await engine.request({ type: 'world_run', running, speed: w.speed, ...view(app) });
  } catch (e) {
    failed(app, running ? 'Could not play' : 'Could not pause', e);
  }
}

/**
 * Play if paused, pause if playing.
 * @param {AppState} app
 * @param {Engine} engine
 */
export function togglePlayWorld(app, engine) {
  return setRunning(app, engine, !app.world.running);
}

/**
 * One tick of game time (pausing first).
 * @param {AppState} app
 * @param {Engine} engine
 */
export async function stepWorld(app, engine) {
  const w = app.world;
  if (!w.on) return say(app, 'There are no units yet: load a scenario or place some.', true);
  try {
    if (w.running) await setRunning(app, engine, false);
    await engine.request({ type: 'world_step', ticks: 1, ...view(app) });
  } catch (e) {
    failed(app, 'Could not step', e);
  }
}

/**
 * The simulation speed (game seconds per second).
 * @param {AppState} app
 * @param {Engine} engine
 * @param {number} speed
 */
export async function setSpeed(app, engine, speed) {
  app.world.speed = speed;
  app.emit('world');
  if (app.world.on) await setRunning(app, engine, app.world.running);
}

/**
 * Change what the states tell (claimed tiles, paths, the fog player) and ask again.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {{showClaimed?: boolean, showPaths?: boolean, player?: string}} change
 */
export async function setView(app, engine, change) {
  Object.assign(app.world, change);
  if (!app.world.player) app.world.known = null;
  app.emit('world');
  if (!app.world.on) return;
  try {
    await engine.request({ type: 'world_run', running: app.world.running, speed: app.world.speed, ...view(app) });
    await refresh(app, engine);
  } catch (e) {
    failed(app, 'Could not change the view', e);
  }
}

/**
 * Choose the avoidance method: a preset loads again with it (its units back at their starts);
 * otherwise the world starts again with the units where they stand.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {string} avoidance
 */
export async function setAvoidance(app, engine, avoidance) {
  const w = app.world;
  w.avoidance = avoidance;
  app.emit('world');
  if (!w.on) return;
  if (w.preset) {
    // The scenario's map and units come again: the history up to the step that loaded it stays
    // (Undo still brings back the work before it), edits made since on its map go with them.
    const m = app.model;
    const history = m.undoStack;
    const at = w.presetStep ? history.indexOf(w.presetStep) : -1;
    await loadPreset(app, engine, w.preset, avoidance);
    m.undoStack = at >= 0 ? history.slice(0, at + 1) : history;
    m.redoStack = [];
    app.emit('controls');
  } else await restartWorld(app, engine, `Avoidance is now "${avoidance}": the world started again with the units where they stood.`);
}

/**
 * Load a scenario preset: its map (a new map: the caller keeps the history, io/work.js's
 * `openScenario` as one undo step), its units with their goals, paused, in units mode.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {string} name
 * @param {string} [avoidance]  the method to run it with (default: the preset's own, when built)
 * @returns {Promise<boolean>} whether it loaded (what went wrong is said)
 */
export async function loadPreset(app, engine, name, avoidance) {
  const w = app.world;
  let doc;
  try {
    doc = await engine.request({ type: 'world_preset', name });
    await openRows(app, engine, doc.map);
  } catch (e) {
    failed(app, `Could not load the scenario ${name}`, e);
    return false;
  }
  const epoch = ++w.epoch; // after the new map (which bumps it too): restarts for the old one stop
  app.mapKey = '';
  w.preset = name;
  w.seed = doc.seed;
  w.fog = !!doc.fog && !!w.info?.fog;
  if (!w.fog) w.player = '';
  else if (!w.player) w.player = doc.units.find((/** @type {WorldUnit} */ u) => u.team)?.team ?? '';
  const built = w.info?.avoidance ?? ['none'];
  const wanted = avoidance ?? doc.avoidance;
  w.avoidance = built.includes(wanted) ? wanted : built.includes(w.avoidance) ? w.avoidance : 'none';
  w.mode = 'units';
  w.tool = 'select';
  try {
    await startWorld(app, engine, doc.units);
  } catch (e) {
    w.preset = '';
    failed(app, `The scenario ${name} could not start`, e);
    return false;
  }
  if (w.epoch !== epoch) return false; // a newer map, restart or scenario took over
  w.loads++;
  for (const u of w.units) {
    const spec = doc.units.find((/** @type {WorldUnit} */ d) => d.id === u.id);
    if (spec?.goal) u.orders = [`move to (${fixed(spec.goal[0], 1)}, ${fixed(spec.goal[1], 1)})`];
  }
  const fogNote = doc.fog && !w.info?.fog ? ' (This scenario is meant for fog of war, which this core has not built yet: it runs without.)' : '';
  say(app, `Scenario ${name}: ${plural(w.units.length, 'unit')}, avoidance "${w.avoidance}". Press Play (Space) to watch, . for one tick.${fogNote}`);
  app.setStatus(app.engineState === 'ready' ? 'ready' : 'loading', `Scenario ${name} loaded: ${plural(w.units.length, 'unit')}. Undo (Ctrl+Z) brings back your work.`, 1);
  return true;
}

/**
 * The unit under a point, if any (the nearest whose body, or a small disc round it, holds it).
 * @param {AppState} app
 * @param {number} x
 * @param {number} y
 */
export function unitAt(app, x, y) {
  let best = null;
  let bestD = Infinity;
  for (const u of app.world.units) {
    const d = Math.hypot(u.x - x, u.y - y);
    if (d <= Math.max(u.width / 2, 0.4) && d < bestD) {
      best = u;
      bestD = d;
    }
  }
  return best;
}

/**
 * Select the unit under a point (with `add`, toggle it in the selection); nothing there clears it.
 * @param {AppState} app
 * @param {number} x
 * @param {number} y
 * @param {boolean} add
 */
export function selectAt(app, x, y, add) {
  const w = app.world;
  const u = unitAt(app, x, y);
  if (!add) w.selected.clear();
  if (u) {
    if (add && w.selected.has(u.id)) w.selected.delete(u.id);
    else w.selected.add(u.id);
  }
  app.emit('world');
}

/**
 * Select the units whose centres lie in a box (tiles); with `add`, keep the selection too.
 * @param {AppState} app
 * @param {{x0: number, y0: number, x1: number, y1: number}} box
 * @param {boolean} add
 */
export function selectBox(app, box, add) {
  const w = app.world;
  const [xa, xb] = [Math.min(box.x0, box.x1), Math.max(box.x0, box.x1)];
  const [ya, yb] = [Math.min(box.y0, box.y1), Math.max(box.y0, box.y1)];
  if (!add) w.selected.clear();
  for (const u of w.units) if (u.x >= xa && u.x <= xb && u.y >= ya && u.y <= yb) w.selected.add(u.id);
  app.emit('world');
}

/**
 * The mouse's job on the map: edit the terrain, or place and command units.
 * @param {AppState} app
 * @param {'edit' | 'units'} mode
 */
export function setMode(app, mode) {
  app.world.mode = mode;
  app.world.box = null;
  app.emit('world', 'view');
}
