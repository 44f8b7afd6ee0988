// @ts-check
/**
 * Opening maps: the built-in ones (from the core data), the Moving AI benchmark maps of this
 * build with their scenarios, files chosen or dropped (.map, .scen, .json, .txt), and ASCII rows
 * from the test API. Every file and every row of text is read by the Python core in the worker
 * (`load_map`, `load_scen`, with the core's validation); this module turns its answers into the
 * page's map. Writing the map as ASCII ("Copy text") is here too.
 *
 * @module io/maps
 */

import { BENCHMARK_OPTIONS, LESTER_OPTIONS } from '../controls.js';
import { clearScenarios, setScenarios } from '../scenarios.js';
import { applyPreset } from '../settings.js';
import { messageOf, plural } from '../util.js';
import { builtInMap } from './coredata.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../app.js').LabMap} LabMap */
/** @typedef {import('../app.js').Scenario} Scenario */
/** @typedef {import('../engine.js').Engine} Engine */
/** @typedef {import('../engine.js').MapMessage} MapMessage */

/** Files larger than this are refused before they are read (a 4096 x 4096 .map is about 17 MB). */
export const MAX_FILE_BYTES = 40 * 1024 * 1024;

/**
 * Show a new map: a running search is cancelled, the scenarios and the comparison go.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {LabMap} map
 * @param {string} key  its map menu entry ('' when it came from elsewhere)
 * @param {{label: string, start: [number, number], goal: [number, number]}} [step]  given: the map
 *   replaces the old one as this undo step (a generated or resized map), not as a new history
 */
export function showMap(app, engine, map, key, step) {
  if (app.searching) engine.cancel();
  app.compare.plans = null;
  clearScenarios(app);
  if (step) app.model.replace({ width: map.width, height: map.height, cells: map.cells, start: step.start, goal: step.goal }, step.label);
  else app.model.load(map);
  app.result = null;
  app.mapKey = key;
  app.settingsNote = null;
  app.emit('maps', 'compare', 'notes');
}

/**
 * The status line once a map is shown: the last map's words never stay.
 * @param {AppState} app
 * @param {string} text
 */
function opened(app, text) {
  const ready = app.engineState === 'ready';
  app.setStatus(ready ? 'ready' : 'loading', ready ? `${text} Press Enter or click Find path.` : `${text} The engine is still loading.`, ready ? 1 : null);
}

/** The menu's words for a built-in map. @param {string} key @param {LabMap} map */
const builtInName = (key, map) => `${key === 'example' ? 'the example map' : key === 'empty' ? 'the empty map' : key === 'maze' ? 'the serpentine maze' : key} (${map.width} x ${map.height})`;

/**
 * Open an entry of the map menu: a built-in map, or `bench:<name>`.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {string} which
 */
export async function openMap(app, engine, which) {
  if (which.startsWith('bench:')) {
    await openBenchmark(app, engine, which.slice(6));
    return;
  }
  if (which === 'lester') {
    showMap(app, engine, { ...builtInMap(app.core, which), costs: app.core.terrains.map((t) => t.cost) }, which);
    const changed = applyPreset(app, LESTER_OPTIONS, "Lester's example");
    app.setStatus(
      app.engineState === 'ready' ? 'ready' : 'loading',
      `Lester's example: A*, 10/14 step costs, Manhattan \u00D7 10, no corner cutting. Press Enter, then Home, and step with . (back with ,).${changed ? ` ${changed}` : ''} Undo (Ctrl+Z) brings back your work.`,
    );
    return;
  }
  const key = which in app.core.maps ? which : 'example';
  const map = builtInMap(app.core, key);
  showMap(app, engine, map, key);
  opened(app, `Opened ${builtInName(key, map)}.`);
}

/**
 * @param {string} path  relative to the site root
 */
async function fetchText(path) {
  const resp = await fetch(new URL(path, document.baseURI));
  if (!resp.ok) throw new Error(`could not fetch ${path} (HTTP ${resp.status})`);
  return resp.text();
}

/**
 * List the benchmark maps of this build (benchmarks/index.json; none when it is missing).
 * @param {AppState} app
 */
export async function loadBenchIndex(app) {
  try {
    const list = JSON.parse(await fetchText('benchmarks/index.json'));
    if (!Array.isArray(list)) throw new Error('index.json is not a list');
    app.benchIndex = list.filter(
      (e) => e && typeof e.name === 'string' && typeof e.map === 'string' && (typeof e.scen === 'string' || e.scen == null),
    );
  } catch {
    app.benchIndex = [];
  }
  app.emit('maps');
}

/**
 * Open a benchmark map with its scenarios, and the benchmark metric.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {string} name
 */
async function openBenchmark(app, engine, name) {
  const entry = app.benchIndex?.find((e) => e.name === name);
  if (!entry) throw new Error(`there is no benchmark map named ${name}`);
  app.setStatus('loading', `Opening the benchmark map ${name}…`, null);
  const mapText = await fetchText(entry.map);
  const map = mapFromAnswer(app, await engine.request({ type: 'load_map', text: mapText, format: 'movingai' }));
  /** @type {Scenario[]} */
  let scenarios = [];
  let scenError = '';
  if (entry.scen) {
    // A broken scenario file does not keep the map from opening.
    try {
      const scenText = await fetchText(entry.scen);
      const answer = await engine.request({ type: 'load_scen', text: scenText, width: map.width, height: map.height });
      scenarios = answer.scenarios || [];
    } catch (e) {
      scenError = messageOf(e);
    }
  }
  showMap(app, engine, map, `bench:${name}`);
  const changed = applyPreset(app, BENCHMARK_OPTIONS, 'The benchmark metric');
  if (scenarios.length) setScenarios(app, name, scenarios);
  const said = `Opened ${name} (${map.width} x ${map.height}, ${plural(scenarios.length, 'scenario')}).`;
  if (scenError) {
    app.setStatus('error', `${said} Error: its scenarios could not be read: ${scenError}`, 0);
  } else {
    app.setStatus(
      app.engineState === 'ready' ? 'ready' : 'loading',
      `${said} Benchmark metric: 8 neighbours, no corner cutting, 1 / \u221A2 steps, octile heuristic.${changed ? ` ${changed}` : ''} Undo (Ctrl+Z) brings back your work.`,
      1,
    );
  }
}

/**
 * The page's map from the worker's `load_map` answer. Its own terrain costs (an arcstar JSON
 * map brings them: the answer's `format` says so) come apart, in `costs`: the caller applies
 * them as an undoable step and says so.
 * @param {AppState} app
 * @param {MapMessage} answer
 * @returns {LabMap}
 */
function mapFromAnswer(app, answer) {
  const ownCosts = answer.format === 'json';
  const { width, height, cells } = answer;
  if (!Number.isInteger(width) || !Number.isInteger(height) || !(cells instanceof Uint8Array) || cells.length !== width * height) {
    throw new Error('the engine read the map but sent back no tiles');
  }
  const types = Array.isArray(answer.terrains) ? answer.terrains : [];
  for (const t of types) {
    if (!app.terrainOf(t.code)) throw new Error(`it uses the terrain "${t.name}" (code ${t.code}), which the lab does not know`);
  }
  /** @type {Array<number | null> | undefined} */
  let costs;
  if (ownCosts && types.length) {
    costs = [...app.model.costs];
    for (const t of types) costs[t.code] = t.cost;
  }
  const start = answer.start ? /** @type {[number, number]} */ ([answer.start[0], answer.start[1]]) : null;
  const goal = answer.goal ? /** @type {[number, number]} */ ([answer.goal[0], answer.goal[1]]) : null;
  return { width, height, cells, start, goal, costs };
}

/**
 * A map file's own terrain costs, applied as one undo step; the words saying what changed ('' if nothing).
 * @param {AppState} app
 * @param {Array<number | null>} costs
 * @param {string} name  the file's
 */
function costsChanged(app, costs, name) {
  const m = app.model;
  const diff = app.core.terrains
    .filter((t) => costs[t.code] !== m.costs[t.code])
    .map((t) => `${t.name} ${m.costs[t.code] ?? '\u221E'} \u2192 ${costs[t.code] ?? '\u221E'}`);
  if (!m.setCosts(costs, `the terrain costs of ${name}`)) return '';
  return `It set its own terrain costs: ${diff.join(', ')} (Undo, Ctrl+Z, restores yours).`;
}

/**
 * The map format a file's name promises (the core then reads it as that, and its errors speak of
 * that format), or undefined to let the core tell by the content.
 * @param {string} name
 * @returns {'json' | 'movingai' | undefined}
 */
function formatOf(name) {
  const lower = name.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.map')) return 'movingai';
  return undefined;
}

/**
 * Open files (dropped or chosen): maps first, then scenario files for them; stops at the first
 * that cannot be opened (the status line says why).
 * @param {AppState} app
 * @param {Engine} engine
 * @param {File[]} files
 */
export async function openFiles(app, engine, files) {
  const isScen = (/** @type {File} */ f) => Number(f.name.toLowerCase().endsWith('.scen'));
  for (const f of [...files].sort((a, b) => isScen(a) - isScen(b))) {
    if (!(await openFile(app, engine, f))) break;
  }
}

/**
 * @param {AppState} app
 * @param {Engine} engine
 * @param {File} file
 * @returns {Promise<boolean>} whether it was opened (errors go to the status line)
 */
async function openFile(app, engine, file) {
  const name = file.name || 'the file';
  const m = app.model;
  try {
    if (file.size > MAX_FILE_BYTES) {
      throw new Error(`the file is ${(file.size / 1048576).toFixed(0)} MB; the lab opens files of at most ${MAX_FILE_BYTES / 1048576} MB`);
    }
    /** @type {string} */
    let text;
    try {
      text = await file.text();
    } catch (e) {
      throw new Error(`the file could not be read (${messageOf(e)})`, { cause: e });
    }
    if (app.engineState !== 'ready') app.setStatus('loading', `Waiting for the engine to read ${name}…`, null);
    if (name.toLowerCase().endsWith('.scen')) {
      const answer = await engine.request({ type: 'load_scen', text, width: m.width, height: m.height });
      const scenarios = /** @type {Scenario[]} */ (answer.scenarios || []);
      if (!scenarios.length) throw new Error('it holds no scenarios');
      setScenarios(app, name, scenarios);
      app.setStatus('ready', `Opened ${name}: ${plural(scenarios.length, 'scenario')} for this ${m.width} x ${m.height} map.`, 1);
    } else {
      const format = formatOf(name);
      const map = mapFromAnswer(app, await engine.request({ type: 'load_map', text, ...(format ? { format } : {}) }));
      const { costs, ...tiles } = map;
      showMap(app, engine, tiles, '');
      const said = costs ? costsChanged(app, costs, name) : '';
      opened(app, `Opened ${name} (${map.width} x ${map.height}).${said ? ` ${said}` : ''}`);
    }
    return true;
  } catch (e) {
    app.setStatus('error', `Error: ${name}: ${messageOf(e)}`, 0);
    return false;
  }
}

/**
 * Replace the map with ASCII rows, read by the core (the lab's format: each terrain's character,
 * `S` the start and `G` the goal). Rejects with the core's readable message, keeping the map,
 * when the rows are malformed.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {unknown} rows
 */
export async function openRows(app, engine, rows) {
  if (!Array.isArray(rows)) throw new Error('A map must be given as an array of strings (rows), e.g. ["..#", "..."]');
  rows.forEach((r, y) => {
    if (typeof r !== 'string') throw new Error(`Row ${y} is not a string (got ${r === null ? 'null' : typeof r})`);
  });
  const map = mapFromAnswer(app, await engine.request({ type: 'load_map', text: rows.join('\n'), format: 'ascii' }));
  showMap(app, engine, map, '');
}

/**
 * The map in the lab's ASCII format, with S and G (a terrain code with no character is `?`).
 * @param {AppState} app
 * @returns {string[]} the rows
 */
export function asciiRows(app) {
  const { width, height, cells, start, goal } = app.model;
  /** @type {string[]} */
  const chars = [];
  for (const t of app.core.terrains) chars[t.code] = t.char;
  /** @type {string[]} */
  const rows = [];
  for (let y = 0; y < height; y++) {
    let row = '';
    for (let x = 0; x < width; x++) {
      if (start[0] === x && start[1] === y) row += 'S';
      else if (goal[0] === x && goal[1] === y) row += 'G';
      else row += chars[cells[y * width + x]] ?? '?';
    }
    rows.push(row);
  }
  return rows;
}
