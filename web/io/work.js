// @ts-check
/**
 * The user's work as one snapshot: the map (cells run-length encoded), terrain costs, start and
 * goal, the search and unit settings (the markers' headings are unit settings), the view's
 * options, the last generator's settings, the world's units when there are any, and the Python
 * panel's code (with the code run, and whether it still awaits this user's first Run: code that
 * comes with a link or a file is shown Off and never run before the receiver presses Run). Autosave,
 * share links and the JSON export all write it with `workText` and read it with `readWork`, so whatever is added here travels in
 * all three. Read as untrusted: every field is checked, and anything malformed throws an Error
 * saying what, before anything on the page changes.
 *
 * `openWork` shows a snapshot as one undo step: Undo brings back the work it replaced, with its
 * own undo history.
 *
 * @module io/work
 */

import { defaultSearchInput, defaultUnitInput, ON_EDIT_CHOICES } from '../controls.js';
import { checkSettings } from '../generator.js';
import { kindWork, readKindWork, showKindWork } from '../maps/kinds.js';
import { lastStep } from '../settings.js';
import { messageOf, plural } from '../util.js';
import { KINDS, loadPreset, say, standing, startWorld } from '../world.js';
import { pendingNote, pythonWork, readPythonWork, showPythonWork, untrusted } from '../python.js';
import { openMap, showMap } from './maps.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../app.js').LabMap} LabMap */
/** @typedef {import('../app.js').SearchInput} SearchInput */
/** @typedef {import('../app.js').UnitInput} UnitInput */
/** @typedef {import('../engine.js').Engine} Engine */
/** @typedef {import('../protocol.js').WorldUnit} WorldUnit */
/** @typedef {import('../state.js').Tile} Tile */

/** What a work file says it is, and the snapshot's version (a later format gets another). */
export const WORK_FORMAT = 'arcstar-work';
export const WORK_VERSION = 1;
/** The most characters a snapshot may have (Chromium keeps about 5 M per origin in localStorage). */
export const MAX_WORK_CHARS = 4_000_000;
/** The largest side of a map the lab opens. */
const MAX_SIDE = 4096;
/** The longest text a saved setting may hold. */
const MAX_TEXT = 200;
/** The most units a world holds (the core's limit). */
const MAX_UNITS = 256;
/** The longest unit id or team name. */
const MAX_NAME = 64;
/** The largest size or speed a unit of no kind may have (tiles, tiles/s). */
const MAX_UNIT_SIZE = 100;

/**
 * The world's part of the work: its settings and its units where they stand (their orders are not kept).
 * @typedef {{avoidance: string, seed: number, fog: boolean, units: WorldUnit[]}} WorkWorld
 */

/**
 * The work, checked and ready to show.
 * @typedef {Object} Work
 * @property {LabMap & {start: Tile, goal: Tile, costs: Array<number | null>}} map
 * @property {string} mapKey  the map menu's entry ('' when the map came from elsewhere)
 * @property {Omit<SearchInput, 'unreadable'>} search
 * @property {UnitInput} unit
 * @property {number} speed  the unit's driving speed, tiles/s
 * @property {boolean} grid  grid lines shown
 * @property {import('../generator.js').GeneratorSettings | null} generator  the last generator's settings
 * @property {WorkWorld | null} world
 * @property {string[] | null} compare  compare mode's ticked methods (null: none saved, the page's stay)
 * @property {import('../python.js').PythonWork} python  the Python panel's code
 * @property {import('../maps/kinds.js').KindWork} kind  squares, hex (and how drawn) or waypoints, with the waypoint graph
 */

/**
 * The cells as runs [code, count, code, count, ...], or null when there are more than `limit` runs.
 * @param {Uint8Array} cells
 * @param {number} limit
 */
export function encodeRuns(cells, limit) {
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
 * The work as it is now (copies: later edits do not change it).
 * @param {AppState} app
 * @returns {Work}
 */
export function currentWork(app) {
  const m = app.model;
  const w = app.world;
  const search = /** @type {Omit<SearchInput, 'unreadable'>} */ (
    Object.fromEntries(Object.entries(app.search).filter(([k]) => k !== 'unreadable'))
  );
  return {
    map: { width: m.width, height: m.height, cells: m.cells.slice(), start: [m.start[0], m.start[1]], goal: [m.goal[0], m.goal[1]], costs: [...m.costs] },
    mapKey: app.mapKey,
    search,
    unit: { ...app.unitInput },
    speed: app.driveSpeed,
    grid: app.showGrid,
    generator: app.generator ? { ...app.generator } : null,
    world: w.on && w.units.length ? { avoidance: w.avoidance, seed: w.seed, fog: w.fog, units: standing(app, w.units) } : null,
    compare: [...app.methods.chosen],
    python: pythonWork(app.python),
    kind: kindWork(app),
  };
}

/**
 * The work as a JSON text, or why it cannot be written (a map too large).
 * @param {AppState} app
 * @param {Work} [work]  default: the work as it is now
 * @returns {{text: string} | {why: string}}
 */
export function workText(app, work = currentWork(app)) {
  const { map } = work;
  const tooBig = { why: `this ${map.width} x ${map.height} map has too many runs of tiles to keep as work (over ${MAX_WORK_CHARS.toLocaleString('en-US')} characters)` };
  const runs = encodeRuns(map.cells, MAX_WORK_CHARS / 4);
  if (!runs) return tooBig;
  const text = JSON.stringify({
    format: WORK_FORMAT,
    v: WORK_VERSION,
    map: { width: map.width, height: map.height, runs, start: map.start, goal: map.goal },
    costs: map.costs,
    mapKey: work.mapKey,
    search: work.search,
    unit: work.unit,
    driveSpeed: work.speed,
    showGrid: work.grid,
    generator: work.generator,
    compare: work.compare,
    ...(work.world ? { world: work.world } : {}),
    python: work.python,
    ...(work.kind.kind !== 'squares' || work.kind.waypoints.nodes.length ? { kind: work.kind } : {}),
  });
  return text.length > MAX_WORK_CHARS ? tooBig : { text };
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

/** @param {unknown} v @param {number} [most] */
const isName = (v, most = MAX_NAME) => typeof v === 'string' && v.length >= 1 && v.length <= most;

/** @param {unknown} v */
const isFinite = (v) => typeof v === 'number' && Number.isFinite(v);

/**
 * Compare mode's ticked methods, checked for shape (whether the engine offers them is checked when
 * they run): up to 4 distinct names; anything else is dropped (null), the rest of the work is kept.
 * @param {unknown} d
 * @returns {string[] | null}
 */
function readCompare(d) {
  const name = (/** @type {unknown} */ v) => typeof v === 'string' && /^[a-z][a-z0-9_]{0,39}$/.test(v);
  return Array.isArray(d) && d.length <= 4 && d.every(name) && new Set(d).size === d.length ? [...d] : null;
}

/**
 * The world's part, checked: units on the map, of a known kind or with sizes in range.
 * @param {any} d
 * @param {number} width
 * @param {number} height
 * @returns {WorkWorld | null}
 */
function readWorld(d, width, height) {
  if (d === undefined || d === null) return null;
  need(isObject(d), 'the units are malformed');
  need(isName(d.avoidance), 'the avoidance method is malformed');
  need(Number.isInteger(d.seed) && Math.abs(d.seed) <= 2 ** 31, 'the world seed is malformed');
  need(typeof d.fog === 'boolean', 'the fog setting is malformed');
  need(Array.isArray(d.units) && d.units.length >= 1 && d.units.length <= MAX_UNITS, `a world holds 1 to ${MAX_UNITS} units`);
  const ids = new Set();
  /** @type {WorldUnit[]} */
  const units = d.units.map((/** @type {any} */ u, /** @type {number} */ i) => {
    const at = `unit ${i + 1}`;
    need(isObject(u), `${at} is malformed`);
    need(isName(u.id) && !ids.has(u.id), `${at} has no id of its own`);
    ids.add(u.id);
    need(u.team === undefined || (typeof u.team === 'string' && u.team.length <= MAX_NAME), `${at}'s team is malformed`);
    const s = u.start;
    need(Array.isArray(s) && s.length === 3 && s.every(isFinite) && s[0] >= 0 && s[1] >= 0 && s[0] <= width && s[1] <= height && Math.abs(s[2]) <= 1000,
      `${at} does not stand on the map`);
    /** @type {WorldUnit} */
    const spec = { id: u.id, start: [s[0], s[1], s[2]], team: u.team ?? '' };
    if (u.kind !== undefined) {
      need(KINDS.includes(u.kind), `${at} is of an unknown kind`);
      spec.kind = u.kind;
    } else {
      for (const k of /** @type {const} */ (['width', 'radius', 'speed'])) {
        need(isFinite(u[k]) && u[k] > 0 && u[k] <= MAX_UNIT_SIZE, `${at}'s ${k} is malformed`);
        spec[k] = u[k];
      }
    }
    return spec;
  });
  return { avoidance: d.avoidance, seed: d.seed, fog: d.fog, units };
}

/**
 * Check a snapshot (its JSON text, or the value parsed from it), field by field, and turn it into
 * work to show. Throws a readable Error on anything malformed.
 * @param {AppState} app
 * @param {unknown} source
 * @returns {Work}
 */
export function readWork(app, source) {
  /** @type {any} */
  let d = source;
  if (typeof source === 'string') {
    need(source.length <= MAX_WORK_CHARS, `it is larger than the lab keeps (${source.length.toLocaleString('en-US')} characters)`);
    try {
      d = JSON.parse(source);
    } catch {
      throw new Error('it is not valid JSON');
    }
  }
  need(isObject(d) && d.v === WORK_VERSION && (d.format === undefined || d.format === WORK_FORMAT), 'it is not work saved by this version of the lab');
  const mp = d.map;
  need(isObject(mp), 'the map is missing');
  const { width, height, runs } = mp;
  need(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1 && width <= MAX_SIDE && height <= MAX_SIDE,
    `the map size ${JSON.stringify(width)?.slice(0, 20)} x ${JSON.stringify(height)?.slice(0, 20)} is not one the lab opens (at most ${MAX_SIDE} x ${MAX_SIDE})`);
  need(Array.isArray(runs) && runs.length % 2 === 0, 'the map tiles are malformed');
  const known = new Set(app.core.terrains.map((t) => t.code));
  const cells = new Uint8Array(width * height);
  let at = 0;
  for (let i = 0; i < runs.length; i += 2) {
    const [code, count] = [runs[i], runs[i + 1]];
    need(known.has(code), `a tile has the unknown terrain ${JSON.stringify(code)?.slice(0, 20)}`);
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
    need(c === null || (typeof c === 'number' && Number.isFinite(c) && c > 0 && c <= 1e6), `the cost ${JSON.stringify(c)?.slice(0, 20)} is not one the lab takes`);
  }
  const search = /** @type {Record<string, unknown>} */ ({ ...defaultSearchInput() });
  delete search.unreadable;
  const unit = /** @type {Record<string, unknown>} */ ({ ...defaultUnitInput() });
  for (const [into, from, name] of /** @type {const} */ ([[search, d.search, 'search'], [unit, d.unit, 'unit']])) {
    need(isObject(from), `the ${name} settings are missing`);
    for (const [k, v] of Object.entries(into)) {
      if (!(k in from)) continue;
      const got = from[k];
      need(typeof got === typeof v && (typeof got !== 'string' || got.length <= MAX_TEXT), `the ${name} setting ${k} is malformed`);
      into[k] = got;
    }
  }
  need(ON_EDIT_CHOICES.some(([v]) => v === unit.on_edit), 'the unit setting on_edit is malformed');
  need(typeof d.mapKey === 'string' && d.mapKey.length <= MAX_TEXT, 'the map name is malformed');
  const speed = Number.isFinite(d.driveSpeed) && d.driveSpeed >= 1 && d.driveSpeed <= 60 ? d.driveSpeed : app.driveSpeed;
  // The last generator's settings (older saves have none; bad ones are dropped, the map is kept).
  let generator = null;
  try {
    generator = d.generator == null ? null : checkSettings(d.generator);
  } catch {
    /* only the Generate fields fall back to their defaults */
  }
  return {
    map: {
      width,
      height,
      cells,
      start: [mp.start[0], mp.start[1]],
      goal: [mp.goal[0], mp.goal[1]],
      costs: app.model.costs.map((c, code) => (known.has(code) ? costs[code] : c)),
    },
    mapKey: d.mapKey,
    search: /** @type {Omit<SearchInput, 'unreadable'>} */ (/** @type {unknown} */ (search)),
    unit: /** @type {UnitInput} */ (/** @type {unknown} */ (unit)),
    speed,
    grid: d.showGrid !== false,
    generator,
    world: readWorld(d.world, width, height),
    compare: readCompare(d.compare),
    python: readPythonWork(d.python),
    kind: readKindWork(d.kind),
  };
}

/**
 * Show the work's map and settings (at once; its units come with `placeUnits`). A new map clears
 * the undo history, as opening a map does.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {Work} work
 */
export function showWork(app, engine, work) {
  showMap(app, engine, { ...work.map, cells: work.map.cells.slice(), costs: [...work.map.costs] }, work.mapKey);
  Object.assign(app.search, work.search, { unreadable: [] });
  Object.assign(app.unitInput, work.unit);
  app.driveSpeed = work.speed;
  app.unit.setSpeed(work.speed, performance.now());
  app.showGrid = work.grid;
  app.generator = work.generator;
  if (work.compare) app.methods.chosen = [...work.compare];
  showPythonWork(app, work.python);
  showKindWork(app, work.kind);
  app.emit('options', 'unit', 'view', 'notes', 'maps', 'costs', 'methods');
}

/**
 * Start the work's world with its units where they stood (paused), when it has any.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {WorkWorld | null} world
 */
export async function placeUnits(app, engine, world) {
  if (!world) return;
  const w = app.world;
  // What the core offers, asked after the page's own question at boot (the worker answers in
  // order), so that answer never finds this world half made and starts it again without units.
  if (!w.info) w.info = await engine.request({ type: 'world_info' });
  const built = w.info?.avoidance ?? [];
  w.avoidance = built.includes(world.avoidance) ? world.avoidance : 'none';
  w.seed = world.seed;
  w.fog = world.fog;
  w.preset = '';
  const numbers = world.units.map((u) => Number(/-(\d+)$/.exec(u.id)?.[1] ?? 0));
  w.nextId = Math.max(w.nextId, ...numbers.map((n) => n + 1));
  await startWorld(app, engine, world.units);
  say(app, `${plural(world.units.length, 'unit')} where ${world.units.length === 1 ? 'it' : 'they'} stood, paused (orders are not kept).`);
}

/**
 * Refuse a work's world that this lab cannot run as it was saved: an avoidance method the core
 * has not built (it would silently run another).
 * @param {AppState} app
 * @param {Engine} engine
 * @param {WorkWorld | null} world
 */
async function checkWorld(app, engine, world) {
  if (!world) return;
  const w = app.world;
  if (!w.info) w.info = await engine.request({ type: 'world_info' });
  const built = w.info?.avoidance ?? ['none'];
  need(built.includes(world.avoidance),
    `its units' avoidance "${world.avoidance.slice(0, 40)}" is not a method this lab has (${built.join(', ')})`);
}

/**
 * Open a snapshot (a link, a work file) as one undo step: Undo brings back the work it replaced
 * and that work's own undo history. When its units cannot be placed, the work before comes back
 * and this throws.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {Work} work
 * @param {string} label  for the Undo button's title, e.g. "open the shared link"
 * @param {'link' | 'file'} [from]  where it came from: its Python code is shown, not run, until Run
 */
export async function openWork(app, engine, work, label, from = 'file') {
  await checkWorld(app, engine, work.world);
  work = { ...work, python: untrusted(work.python, from) };
  const m = app.model;
  const before = currentWork(app);
  const history = m.undoStack;
  /** @param {Work} to */
  const swap = (to) => {
    const [undo, redo] = [m.undoStack, m.redoStack];
    showWork(app, engine, to);
    [m.undoStack, m.redoStack] = [undo, redo];
    placeUnits(app, engine, to.world).catch((e) => say(app, `The units could not be put back: ${messageOf(e)}`, true));
  };
  showWork(app, engine, work);
  m.undoStack = history;
  /** @type {import('../state.js').Command} */
  const step = { label, undo: () => swap(before), redo: () => swap(work) };
  m.record(step);
  try {
    await placeUnits(app, engine, work.world);
  } catch (e) {
    const kept = m.undoStack.filter((s) => s !== step);
    showWork(app, engine, before);
    m.undoStack = kept;
    app.emit('controls');
    await placeUnits(app, engine, before.world).catch(() => {});
    throw new Error(`its units could not be placed (${messageOf(e)})`, { cause: e });
  }
}

/**
 * Whether a file is an arcstar work file (its head names the format; map files go to the worker).
 * @param {File} file
 */
export async function isWorkFile(file) {
  if (!file.name.toLowerCase().endsWith('.json')) return false;
  try {
    return (await file.slice(0, 4096).text()).includes(`"${WORK_FORMAT}"`);
  } catch {
    return false;
  }
}

/**
 * Open a work file (chosen or dropped) as one undo step, as a share link opens; anything wrong
 * with it leaves the work as it was, and the status line says what.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {File} file
 * @returns {Promise<boolean>} whether it was opened
 */
export async function openWorkFile(app, engine, file) {
  const name = file.name || 'the file';
  try {
    if (file.size > MAX_WORK_CHARS) throw new Error(`it is ${(file.size / 1048576).toFixed(1)} MB, more than a work file can be (${MAX_WORK_CHARS / 1e6} MB)`);
    const work = readWork(app, await file.text());
    await openWork(app, engine, work, `open ${name}`);
    const units = work.world ? `, ${work.world.units.length === 1 ? '1 unit' : `${work.world.units.length} units`}` : '';
    app.setStatus(app.engineState === 'ready' ? 'ready' : 'loading',
      `Opened ${name}: a ${work.map.width} x ${work.map.height} map with its costs, start and goal, settings${units}. Undo (Ctrl+Z) brings back your work.${pendingNote(app)}`, 1);
    return true;
  } catch (e) {
    app.setStatus('error', `Error: ${name}: ${messageOf(e)}. Your map and work are as they were.`, 0);
    return false;
  }
}

/**
 * The world's settings that are not part of the work, to put back with it.
 * @param {AppState} app
 */
function worldSettings(app) {
  const { fog, player, avoidance, seed, mode, tool } = app.world;
  return { fog, player, avoidance, seed, mode, tool };
}

/**
 * Open something over the work (a scenario, a map preset) as one undo step: `apply` shows it (a
 * new map, its settings, its units). Undo brings back the work before it (the map, costs, start
 * and goal, settings, units where they stood) with that work's own undo history; Redo runs `apply`
 * again. When `apply` fails (it says why) before the map changed, nothing is recorded. Steps
 * `apply` records on the new map (a benchmark's first scenario chosen) come after this one.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {string} label  what was opened, for people and the Undo button's title, e.g. "the scenario door"
 * @param {() => Promise<unknown>} apply  shows it; false (or a throw) when it could not
 * @returns {Promise<import('../state.js').Command | null>} the undo step, or null when nothing changed
 */
export async function openOverWork(app, engine, label, apply) {
  const m = app.model;
  const before = currentWork(app);
  const was = worldSettings(app);
  const history = m.undoStack;
  const redoHistory = m.redoStack;
  let ok = false;
  /** @type {unknown} */
  let error = null;
  try {
    ok = (await apply()) !== false;
  } catch (e) {
    error = e;
  }
  if (m.undoStack === history) {
    // the map never changed: nothing to take back (and a redo still to come stays)
    m.redoStack = redoHistory;
    if (error) throw error;
    return null;
  }
  /** @type {import('../state.js').Command} */
  const step = {
    label: `open ${label}`,
    undo: () => {
      const [undo, redo] = [m.undoStack, m.redoStack];
      const hadNote = !!app.settingsNote;
      showWork(app, engine, before);
      [m.undoStack, m.redoStack] = [undo, redo];
      Object.assign(app.world, was);
      if (hadNote) app.settingsNote = { text: `Your settings are back (before ${label}).`, undo: null, step: null };
      app.emit('world', 'view', 'notes', 'controls');
      app.setStatus(app.engineState === 'ready' ? 'ready' : 'loading',
        `Your work is back as it was before ${label}: the map, costs, settings${before.world ? ' and units' : ''}. Redo (Ctrl+Y) opens ${label} again.`, 1);
      placeUnits(app, engine, before.world).catch((e) => say(app, `The units could not be put back: ${messageOf(e)}`, true));
    },
    redo: () => {
      const [undo, redo] = [m.undoStack, m.redoStack];
      Promise.resolve()
        .then(apply)
        .catch((e) => app.setStatus('error', `Error: ${label} could not be opened again: ${messageOf(e)}`, 0))
        .finally(() => {
          [m.undoStack, m.redoStack] = [undo, redo];
          if (!undo.includes(step)) undo.push(step);
          adopt();
        });
    },
  };
  /** The settings note `apply` left offers this step's Undo (the whole step: map, units and settings). */
  const adopt = () => {
    const note = app.settingsNote;
    if (note?.step) app.settingsNote = { ...note, step, undo: () => void (lastStep(app) === step && m.undo()) };
    app.emit('notes', 'controls');
  };
  // Steps `apply` recorded on the new map after it (a benchmark's scenario chosen) stay after this
  // one; the settings it changed are this step's.
  const after = m.undoStack.filter((c) => c !== app.settingsNote?.step);
  m.undoStack = history;
  m.record(step);
  for (const c of after) m.record(c);
  adopt();
  if (error) throw error;
  return ok ? step : null;
}

/**
 * Load a scenario preset over the work, as one undo step.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {string} name
 */
export async function openScenario(app, engine, name) {
  const step = await openOverWork(app, engine, `the scenario ${name}`, () => loadPreset(app, engine, name));
  if (step) app.world.presetStep = step;
}

/**
 * Open an entry of the map menu. The presets that set the search settings too (Lester's example,
 * a benchmark map) open as one undo step that brings back the work; the plain maps start anew.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {string} which
 */
export async function openMapEntry(app, engine, which) {
  if (which !== 'lester' && !which.startsWith('bench:')) return openMap(app, engine, which);
  const label = which === 'lester' ? "Lester's example" : `the benchmark map ${which.slice(6)}`;
  await openOverWork(app, engine, label, () => openMap(app, engine, which));
}
