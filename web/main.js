// @ts-check
/**
 * The lab page: wires the map model, the editor, the renderer, the replay,
 * the unit and the search engine (a Web Worker running arcstar in Pyodide)
 * together, and exposes `window.arcstar` for tests and embedding.
 *
 * Coordinates are tiles: tile (x, y), x right, y down; the centre of tile
 * (x, y) is (x + 0.5, y + 0.5); headings in radians, 0 = +x, pi/2 = +y.
 *
 * @module main
 */

import {
  BENCHMARK_OPTIONS,
  DEFAULT_OPTIONS,
  LEGAL_TURNING,
  LESTER_OPTIONS,
  PROVISIONAL_CHOICES,
  TURNING_CHOICES,
  label,
  parseCost,
  parseNumbers,
  parseUnit,
  showCost,
} from './controls.js';
import { SegmentPath } from './segments.js';
import { Editor } from './editor.js';
import { MAX_FILE_BYTES, benchVerdict, mapFromAnswer } from './files.js';
import { CancelledError, Engine } from './engine.js';
import { DEFAULT_TERRAINS, TERRAIN, emptyMap, lesterMap, parseAscii, serpentineMap, toAscii } from './maps.js';
import { LESTER_TILE_PX, MAX_TILE_PX, Renderer, terrainCss } from './render.js';
import { Replay } from './replay.js';
import { MapModel } from './state.js';
import { Unit } from './unit.js';

/**
 * Whether a result carries a path to draw and drive: found, or found but not legal for the unit.
 * @param {string} status
 */
function hasPath(status) {
  return status === 'found' || status === 'not_legal';
}

/** @typedef {import('./engine.js').SearchResult} SearchResult */
/** @typedef {import('./controls.js').SearchOptions} SearchOptions */
/** @typedef {import('./maps.js').TerrainType} TerrainType */

/**
 * What the page keeps of the last search (also returned by findPath).
 * @typedef {Object} LastResult
 * @property {string} status  'found' | 'not_legal' | 'no_path' | 'unreachable' | 'budget_exhausted' | 'cancelled' | 'error'
 * @property {Array<[number, number]>} [path]
 * @property {number | null} [cost]
 * @property {number} [length]
 * @property {number} [expanded]
 * @property {number} [ms]
 * @property {boolean} [optimal]  whether the method guarantees the least cost
 * @property {number} [closedCount]
 * @property {number} [openCount]
 * @property {[number, number]} [start]
 * @property {[number, number]} [goal]
 * @property {number} [version]  the map version searched
 * @property {string} [message]  for errors
 * @property {boolean} [replay]  whether the search can be replayed
 * @property {number | null} [optimalLength]  the benchmark scenario's optimal length, if one was searched
 * @property {boolean | null} [matchesOptimal]  whether the length found matches it
 * @property {string | null} [turning]  the turning method planned with (null: the tile path)
 * @property {Array<Object>} [segments]  with turning: the lines and arcs (see segments.js)
 * @property {boolean | null} [legal]  with turning: whether the body never overlaps a wall
 * @property {Array<[number, number]>} [blocked]  stretches (distances) where it does
 * @property {Array<[number, number, number]>} [speedLimits]  [from, to, factor] stretches
 * @property {number} [turns]
 * @property {number | null} [segmentsLength]
 */

/**
 * A Moving AI scenario.
 * @typedef {{id: number, bucket: number, start: [number, number], goal: [number, number], optimal: number}} Scenario
 */

// ---------------------------------------------------------------- elements

/** @param {string} id */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`index.html lacks #${id}`);
  return el;
}

const canvas = /** @type {HTMLCanvasElement} */ ($('map'));
const frame = $('map-frame');
const statusBox = /** @type {HTMLElement} */ (document.querySelector('[data-testid="status"]'));
const statusText = /** @type {HTMLElement} */ (document.querySelector('[data-testid="status-text"]'));
const progressBar = /** @type {HTMLProgressElement} */ (document.querySelector('[data-testid="progress"]'));
const findBtn = /** @type {HTMLButtonElement} */ ($('find'));
const cancelBtn = /** @type {HTMLButtonElement} */ ($('cancel'));
const findHint = $('find-hint');
const undoBtn = /** @type {HTMLButtonElement} */ ($('undo'));
const redoBtn = /** @type {HTMLButtonElement} */ ($('redo'));
const clearBtn = /** @type {HTMLButtonElement} */ ($('clear'));
const paintBtn = $('tool-paint');
const eraseBtn = $('tool-erase');
const brushBox = $('brushes');
const paletteBody = $('palette');
const costError = $('cost-error');
const mapSel = /** @type {HTMLSelectElement} */ ($('map-select'));
const benchGroup = /** @type {HTMLOptGroupElement} */ ($('bench-group'));
const scenarioBox = $('scenarios');
const bucketSel = /** @type {HTMLSelectElement} */ ($('bucket'));
const scenarioSel = /** @type {HTMLSelectElement} */ ($('scenario'));
const benchResult = $('bench-result');
const fileInput = /** @type {HTMLInputElement} */ ($('file'));
const dropHint = $('drop-hint');
const copyBtn = /** @type {HTMLButtonElement} */ ($('copy'));
const speedInput = /** @type {HTMLInputElement} */ ($('speed'));
const speedOut = $('speed-out');
const gridBox = /** @type {HTMLInputElement} */ ($('grid'));
const exploredBox = /** @type {HTMLInputElement} */ ($('explored'));
const methodNote = $('method-note');
const optionsError = $('options-error');
const hoverBox = $('hover');
const zoomSlider = /** @type {HTMLInputElement} */ ($('zoom'));
const zoomText = $('zoom-out-text');
const rpButtons = {
  start: /** @type {HTMLButtonElement} */ ($('rp-start')),
  back: /** @type {HTMLButtonElement} */ ($('rp-back')),
  play: /** @type {HTMLButtonElement} */ ($('rp-play')),
  step: /** @type {HTMLButtonElement} */ ($('rp-step')),
  end: /** @type {HTMLButtonElement} */ ($('rp-end')),
};
const rpSpeed = /** @type {HTMLInputElement} */ ($('rp-speed'));
const rpSpeedOut = $('rp-speed-out');
const rpPos = $('rp-pos');

/** The select-based settings, by option name. */
const selects = {
  method: /** @type {HTMLSelectElement} */ ($('method')),
  neighbours: /** @type {HTMLSelectElement} */ ($('neighbours')),
  diagonal: /** @type {HTMLSelectElement} */ ($('diagonal')),
  costs: /** @type {HTMLSelectElement} */ ($('costs')),
  heuristic: /** @type {HTMLSelectElement} */ ($('heuristic')),
  open_list: /** @type {HTMLSelectElement} */ ($('open-list')),
  stop: /** @type {HTMLSelectElement} */ ($('stop')),
};
/** The number-based settings, by option name. */
const numbers = {
  weight: /** @type {HTMLInputElement} */ ($('weight')),
  turn_penalty: /** @type {HTMLInputElement} */ ($('turn-penalty')),
  max_expansions: /** @type {HTMLInputElement} */ ($('budget')),
};
const NUMBER_NAMES = { weight: 'Weight', turn_penalty: 'Turn cost', max_expansions: 'Budget' };
/** The unit's settings. */
const unitEls = {
  turning: /** @type {HTMLSelectElement} */ ($('turning')),
  radius: /** @type {HTMLInputElement} */ ($('radius')),
  width: /** @type {HTMLInputElement} */ ($('unit-width')),
  art: /** @type {HTMLSelectElement} */ ($('art')),
  can_reverse: /** @type {HTMLInputElement} */ ($('can-reverse')),
};
const unitError = $('unit-error');
const compareBox = /** @type {HTMLInputElement} */ ($('compare'));
const compareLegend = $('compare-legend');

// ---------------------------------------------------------------- status line

/**
 * @param {string} state  loading | ready | searching | found | no_path | unreachable | cancelled | error
 * @param {string} text
 * @param {number | null} [progress]  0..1, or null for an indeterminate bar
 */
function setStatus(state, text, progress) {
  statusBox.dataset.state = state;
  statusBox.classList.toggle('is-error', state === 'error');
  statusText.textContent = text;
  if (progress === null) progressBar.removeAttribute('value');
  else if (progress !== undefined) progressBar.value = progress;
}

/** @param {number} n */
const fmt = (n) => (Number.isFinite(n) ? n.toLocaleString('en-US') : String(n));
/** @param {number} n @param {number} [d=1] */
const fixed = (n, d = 1) =>
  typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d }) : '–';
/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

// ---------------------------------------------------------------- model, view, tools

const model = new MapModel(emptyMap(48, 32));
const renderer = new Renderer(canvas, frame);
const unit = new Unit(Number(speedInput.value) || 8);
/** @type {LastResult | null} */
let lastResult = null;
let searching = false;
/** searches settled (found, failed, cancelled or refused): lets tests wait for the next one */
let searchCount = 0;
let needsDraw = true;
let engineState = 'loading';
/** the map menu's entry for the map shown ('' when it came from elsewhere) */
let mapKey = 'example';
/** @type {TerrainType[]} terrain types (from the engine's info once it is loaded) */
let terrains = DEFAULT_TERRAINS.map((t) => ({ ...t }));
/** @type {number} the terrain the Paint tool lays */
let paintCode = TERRAIN.WALL;

/** @param {number} code */
const terrainOf = (code) => terrains.find((t) => t.code === code);
/** @param {number} code */
const terrainName = (code) => terrainOf(code)?.name ?? `terrain ${code}`;

const editor = new Editor(canvas, model, renderer, {
  onHover: (tile) => {
    showHover(tile);
    needsDraw = true;
  },
  onView: () => {
    syncZoomUi();
    needsDraw = true;
  },
  terrainName,
});
editor.setTerrain(paintCode);

/** @param {[number, number] | null} tile */
function showHover(tile) {
  const size = `${model.width} x ${model.height}`;
  if (!tile) {
    hoverBox.textContent = size;
    return;
  }
  const [x, y] = tile;
  const code = model.cells[y * model.width + x];
  const cost = model.costs[code];
  let text = `x ${x}, y ${y}  ${terrainName(code)} (${cost === null || cost === undefined ? 'impassable' : `cost ${cost}`})`;
  if (rp) {
    const s = rp.replay.tile(x, y);
    if (s.list && s.g !== null) {
      const f = rp.format;
      text += `  ${s.list}: F ${f(/** @type {number} */ (s.f))} G ${f(s.g)} H ${s.h === null ? '?' : f(s.h)}`;
    }
  }
  hoverBox.textContent = `${text}   ${size}`;
}

function syncView() {
  renderer.setMap(model.width, model.height, model.cells);
  renderer.start = model.start;
  renderer.goal = model.goal;
  needsDraw = true;
}

model.subscribe((kind) => {
  if (kind === 'load') {
    dropReplay();
    syncView();
    renderer.setResult(null, null);
    unit.placeAt(model.start, 0);
    hoverBox.textContent = `${model.width} x ${model.height}`;
    refreshCosts();
  } else if (kind === 'cells' || kind === 'costs') {
    endReplay();
    renderer.invalidateTerrain();
    markStale();
    if (kind === 'costs') refreshCosts();
  } else if (kind === 'markers') {
    endReplay();
    renderer.start = model.start;
    renderer.goal = model.goal;
    if (!unit.moving && !lastResult?.path?.length) unit.placeAt(model.start);
    markStale();
    showBenchHint();
  }
  updateButtons();
  needsDraw = true;
});

/** The drawn result no longer matches the map. */
function markStale() {
  if (lastResult && lastResult.version !== undefined && !renderer.stale && (renderer.explored || renderer.path)) {
    renderer.stale = true;
  }
}

function updateButtons() {
  undoBtn.disabled = !model.canUndo();
  redoBtn.disabled = !model.canRedo();
  const u = model.undoStack[model.undoStack.length - 1];
  const r = model.redoStack[model.redoStack.length - 1];
  undoBtn.title = u ? `Undo ${u.label} (Ctrl+Z)` : 'Nothing to undo (Ctrl+Z)';
  redoBtn.title = r ? `Redo ${r.label} (Ctrl+Shift+Z or Ctrl+Y)` : 'Nothing to redo (Ctrl+Shift+Z or Ctrl+Y)';
  findBtn.disabled = engineState !== 'ready';
  findBtn.title =
    engineState === 'ready'
      ? 'Find a path from S to G (Enter)'
      : engineState === 'failed'
        ? 'The engine failed to load: see the status line'
        : 'The engine is still loading (Pyodide, numpy, arcstar)';
  findHint.hidden = engineState === 'ready';
  if (engineState === 'failed') findHint.textContent = 'The search engine could not be loaded; the editor still works.';
  cancelBtn.disabled = !searching;
}

// ---------------------------------------------------------------- the view: size, zoom, pan

const helpLine = /** @type {HTMLElement} */ (document.querySelector('.keys'));

/** Size the canvas to the window; fit the map when the view is fitted. */
function relayout() {
  renderer.reserveBelow = Math.ceil(helpLine.getBoundingClientRect().height) + 16;
  renderer.resize();
  syncZoomUi();
  needsDraw = true;
}

/** Show the whole map. */
function fitView() {
  renderer.fit();
  syncZoomUi();
  needsDraw = true;
}

/** @param {number} ts */
function tsToSlider(ts) {
  const lo = renderer.minTileSize();
  return Math.round((1000 * Math.log(ts / lo)) / Math.log(MAX_TILE_PX / lo));
}

/** @param {number} v */
function sliderToTs(v) {
  const lo = renderer.minTileSize();
  return lo * Math.pow(MAX_TILE_PX / lo, v / 1000);
}

function syncZoomUi() {
  zoomSlider.value = String(tsToSlider(renderer.tileSize));
  const ts = renderer.tileSize;
  zoomText.textContent = `${ts >= 10 ? Math.round(ts) : ts.toFixed(ts >= 1 ? 1 : 2)} px`;
  zoomSlider.title = `Zoom: ${zoomText.textContent} a tile${ts >= LESTER_TILE_PX ? ' (scores shown)' : ` (scores from ${LESTER_TILE_PX} px)`}`;
}

/** @param {number} factor */
function zoomBy(factor) {
  renderer.zoomBy(factor);
  syncZoomUi();
  needsDraw = true;
}

window.addEventListener('resize', relayout);
// The top bar can change height (a long status line wraps): keep the map inside the window.
const topbar = document.querySelector('.topbar');
const toolbar = document.querySelector('.toolbar');
if ('ResizeObserver' in window) {
  const ro = new ResizeObserver(() => relayout());
  if (topbar) ro.observe(topbar);
  if (toolbar) ro.observe(toolbar);
  ro.observe(helpLine);
}
zoomSlider.addEventListener('input', () => {
  renderer.zoomTo(sliderToTs(Number(zoomSlider.value)));
  syncZoomUi();
  needsDraw = true;
});
$('zoom-in').addEventListener('click', () => zoomBy(1.25));
$('zoom-out').addEventListener('click', () => zoomBy(1 / 1.25));
$('fit').addEventListener('click', fitView);

// ---------------------------------------------------------------- terrain palette and costs

/** @type {Map<number, string>} the cost inputs' errors, by terrain code */
const costErrors = new Map();

function buildPalette() {
  paletteBody.textContent = '';
  terrains.forEach((t, i) => {
    const tr = document.createElement('tr');
    const pick = document.createElement('td');
    const btn = document.createElement('button');
    btn.type = 'button';
    btn.className = 'terrain-btn';
    btn.dataset.code = String(t.code);
    btn.dataset.testid = `terrain-${t.name}`;
    btn.setAttribute('aria-pressed', 'false');
    btn.title = `Paint ${t.name} ("${t.char}")${i < 9 ? ` (key ${i + 1})` : ''}`;
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = terrainCss(t.code);
    const name = document.createElement('span');
    name.textContent = t.name;
    btn.append(sw, name);
    if (i < 9) {
      const k = document.createElement('kbd');
      k.textContent = String(i + 1);
      btn.append(k);
    }
    btn.addEventListener('click', () => selectTerrain(t.code));
    pick.append(btn);
    const costCell = document.createElement('td');
    costCell.className = 'cost';
    const input = document.createElement('input');
    input.type = 'text';
    input.inputMode = 'decimal';
    input.autocomplete = 'off';
    input.spellcheck = false;
    input.dataset.code = String(t.code);
    input.dataset.testid = `cost-${t.name}`;
    input.setAttribute('aria-label', `Cost of ${t.name}`);
    input.title = `Cost of ${t.name}: a positive number (1 = ground), or \u221E for impassable; Enter applies, Esc reverts`;
    input.value = showCost(model.costs[t.code]);
    input.addEventListener('input', () => checkCostInput(t, input, false));
    input.addEventListener('change', () => checkCostInput(t, input, true));
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        checkCostInput(t, input, true);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        input.value = showCost(model.costs[t.code]);
        checkCostInput(t, input, false);
      }
    });
    costCell.append(input);
    tr.append(pick, costCell);
    paletteBody.append(tr);
  });
  selectTerrain(paintCode);
}

/**
 * Check a cost input; apply it (one undo step) when `commit` and it is valid.
 * @param {TerrainType} t
 * @param {HTMLInputElement} input
 * @param {boolean} commit
 */
function checkCostInput(t, input, commit) {
  try {
    const cost = parseCost(input.value, t.name);
    costErrors.delete(t.code);
    input.removeAttribute('aria-invalid');
    if (commit) {
      model.setCost(t.code, cost, t.name);
      input.value = showCost(model.costs[t.code]);
    }
  } catch (e) {
    costErrors.set(t.code, messageOf(e));
    input.setAttribute('aria-invalid', 'true');
  }
  showCostErrors();
}

function showCostErrors() {
  costError.hidden = costErrors.size === 0;
  costError.textContent = [...costErrors.values()].join('\n');
  if (costErrors.size) costError.textContent += '\nNot applied: the search uses the last valid cost.';
}

/** Show the model's costs in the inputs (after undo, a load, or the engine's info). */
function refreshCosts() {
  for (const input of paletteBody.querySelectorAll('input')) {
    const code = Number(/** @type {HTMLInputElement} */ (input).dataset.code);
    /** @type {HTMLInputElement} */ (input).value = showCost(model.costs[code]);
    input.removeAttribute('aria-invalid');
  }
  costErrors.clear();
  showCostErrors();
}

/** @param {number} code */
function selectTerrain(code) {
  if (!terrainOf(code)) return;
  paintCode = code;
  editor.setTerrain(code);
  for (const btn of paletteBody.querySelectorAll('.terrain-btn')) {
    const on = Number(/** @type {HTMLElement} */ (btn).dataset.code) === code;
    btn.classList.toggle('on', on);
    btn.setAttribute('aria-pressed', String(on));
  }
  if (editor.tool === 'erase') setTool('paint');
}

/** @param {'paint' | 'erase'} tool */
function setTool(tool) {
  editor.setTool(tool);
  paintBtn.classList.toggle('on', tool === 'paint');
  eraseBtn.classList.toggle('on', tool === 'erase');
  paintBtn.setAttribute('aria-checked', String(tool === 'paint'));
  eraseBtn.setAttribute('aria-checked', String(tool === 'erase'));
}

const BRUSHES = [1, 2, 3, 5];
/** @param {number} n */
function setBrush(n) {
  editor.setBrush(n);
  for (const btn of brushBox.querySelectorAll('button')) {
    const on = Number(/** @type {HTMLElement} */ (btn).dataset.brush) === editor.brush;
    btn.classList.toggle('on', on);
    btn.setAttribute('aria-checked', String(on));
  }
  needsDraw = true;
}
brushBox.addEventListener('click', (e) => {
  const btn = /** @type {HTMLElement} */ (e.target).closest('button');
  if (btn && btn.dataset.brush) setBrush(Number(btn.dataset.brush));
});

// ---------------------------------------------------------------- search settings

/** @type {any} the engine's info answer */
let info = null;

/**
 * @param {keyof typeof selects} name
 * @param {string[]} values
 */
function fillSelect(name, values) {
  const el = selects[name];
  const current = el.value;
  el.textContent = '';
  for (const v of values) {
    const opt = document.createElement('option');
    opt.value = v;
    opt.textContent = name === 'neighbours' ? `${v} neighbours` : label(/** @type {any} */ (name), v);
    el.append(opt);
  }
  el.value = values.includes(current) ? current : values.includes(String(/** @type {any} */ (DEFAULT_OPTIONS)[name])) ? String(/** @type {any} */ (DEFAULT_OPTIONS)[name]) : values[0];
}

/** @param {any} answer */
function applyInfo(answer) {
  info = answer;
  const list = (/** @type {unknown} */ v) => (Array.isArray(v) ? v.map(String) : Object.keys(v || {}));
  fillSelect('method', list(answer.methods));
  fillSelect('diagonal', list(answer.diagonal));
  fillSelect('costs', list(answer.costs));
  fillSelect('heuristic', list(answer.heuristics));
  fillSelect('open_list', list(answer.open_lists));
  fillSelect('stop', list(answer.stop));
  if (Array.isArray(answer.terrains) && answer.terrains.length) {
    const known = new Map(DEFAULT_TERRAINS.map((t) => [t.code, t]));
    terrains = answer.terrains.map((/** @type {TerrainType} */ t) => ({ code: t.code, name: t.name, char: t.char, cost: t.cost }));
    // Costs nobody edited yet follow the engine's defaults.
    for (const t of terrains) {
      const js = known.get(t.code);
      if (!js || model.costs[t.code] === js.cost) model.costs[t.code] = t.cost;
    }
    buildPalette();
    refreshCosts();
  }
  updateOptionsUi();
}

/**
 * The settings as typed, with the errors of the ones that cannot be sent.
 * @returns {{options: SearchOptions, errors: Record<string, string>}}
 */
function readOptions() {
  /** @type {Record<string, string>} */
  const raw = {};
  /** @type {Record<string, string>} */
  const bad = {};
  for (const [k, el] of Object.entries(numbers)) {
    raw[k] = el.value;
    if (el.validity.badInput) bad[k] = `${NUMBER_NAMES[/** @type {keyof typeof NUMBER_NAMES} */ (k)]} is not a number.`;
  }
  const { values, errors } = parseNumbers(/** @type {any} */ (raw));
  Object.assign(errors, bad);
  const options = {
    method: selects.method.value,
    neighbours: Number(selects.neighbours.value),
    diagonal: selects.diagonal.value,
    costs: selects.costs.value,
    heuristic: selects.heuristic.value,
    weight: values.weight ?? DEFAULT_OPTIONS.weight,
    open_list: selects.open_list.value,
    turn_penalty: values.turn_penalty ?? 0,
    stop: selects.stop.value,
    max_expansions: values.max_expansions ?? null,
    trace: exploredBox.checked,
  };
  return { options, errors };
}

/** @type {{describe: (options: Record<string, unknown>) => Promise<{optimal: boolean, text: string}>} | null} */
let describer = null; // the engine, once it exists: the core says what settings guarantee
let describeSeq = 0;

/**
 * Show what these settings guarantee, in the core's words (the planner's method registry):
 * the lab keeps no copy of those rules. Answers to older settings are dropped.
 * @param {Record<string, unknown>} options
 */
async function showGuarantee(options) {
  const seq = ++describeSeq;
  if (!describer) return;
  try {
    const g = await describer.describe(options);
    if (seq !== describeSeq) return;
    methodNote.textContent = g.text;
    methodNote.classList.toggle('warn', g.optimal === false);
  } catch (e) {
    if (seq !== describeSeq) return;
    methodNote.textContent = '';
    methodNote.classList.remove('warn');
  }
}

/** Enable what applies, show what the settings guarantee and what is wrong. */
function updateOptionsUi() {
  const { options, errors } = readOptions();
  const dijkstra = options.method === 'dijkstra';
  selects.heuristic.disabled = dijkstra;
  numbers.weight.disabled = dijkstra;
  selects.heuristic.title = dijkstra ? 'Dijkstra uses no heuristic (H = 0)' : 'H: the estimate of the cost still to go';
  selects.diagonal.disabled = options.neighbours === 4;
  selects.diagonal.title = options.neighbours === 4 ? 'With 4 neighbours there are no diagonal steps' : 'When a diagonal step is allowed next to walls';
  showGuarantee(options);
  for (const [k, el] of Object.entries(numbers)) {
    if (errors[k]) el.setAttribute('aria-invalid', 'true');
    else el.removeAttribute('aria-invalid');
  }
  const msgs = Object.values(errors);
  optionsError.hidden = msgs.length === 0;
  optionsError.textContent = msgs.join('\n');
}

for (const el of Object.values(selects)) el.addEventListener('change', updateOptionsUi);
for (const el of Object.values(numbers)) {
  el.addEventListener('input', updateOptionsUi);
  el.addEventListener('change', updateOptionsUi);
}
exploredBox.addEventListener('change', updateOptionsUi);

const OPTION_KEYS = Object.keys(DEFAULT_OPTIONS);

/**
 * Set search settings (the same checks as the controls). Throws a readable
 * Error, changing nothing, on an unknown name or value.
 * @param {Partial<SearchOptions>} partial
 */
function setOptions(partial) {
  if (!partial || typeof partial !== 'object') throw new Error('setOptions needs an object, e.g. {method: "dijkstra"}');
  for (const [k, v] of Object.entries(partial)) {
    if (!OPTION_KEYS.includes(k)) throw new Error(`Unknown option "${k}" (known: ${OPTION_KEYS.join(', ')})`);
    if (k in selects) {
      const el = selects[/** @type {keyof typeof selects} */ (k)];
      const values = [...el.options].map((o) => o.value);
      if (!values.includes(String(v))) throw new Error(`${k} must be one of ${values.join(', ')} (got ${JSON.stringify(v)})`);
    } else if (k === 'trace') {
      if (typeof v !== 'boolean') throw new Error(`trace must be true or false (got ${JSON.stringify(v)})`);
    } else if (!(v === null && k === 'max_expansions') && typeof v !== 'number') {
      throw new Error(`${k} must be a number (got ${JSON.stringify(v)})`);
    }
  }
  for (const [k, v] of Object.entries(partial)) {
    if (k in selects) selects[/** @type {keyof typeof selects} */ (k)].value = String(v);
    else if (k === 'trace') exploredBox.checked = /** @type {boolean} */ (v);
    else numbers[/** @type {keyof typeof numbers} */ (k)].value = v === null ? '' : String(v);
  }
  updateOptionsUi();
  return readOptions().options;
}

// ---------------------------------------------------------------- replay

/**
 * The search being replayed.
 * @type {{replay: Replay, path: Array<[number, number]>, start: [number, number], format: (v: number) => string, driven: boolean} | null}
 */
let rp = null;
/** expansions owed to the player (fractional) */
let rpAcc = 0;
let rpLast = 0;

/** @param {number} v  slider 0..1000 -> 1..2000 expansions per second */
const sliderToSpeed = (v) => Math.max(1, Math.min(2000, Math.round(Math.pow(2000, v / 1000))));
let rpSpeedValue = sliderToSpeed(Number(rpSpeed.value));

/** @param {string} costs  the cost model of the search */
function scoreFormat(costs) {
  if (costs === 'lester') {
    return (/** @type {number} */ v) => (Math.abs(v - Math.round(v)) < 1e-6 ? String(Math.round(v)) : v.toFixed(1));
  }
  return (/** @type {number} */ v) => v.toFixed(1);
}

/** Show the replay's state in the canvas and the bar. */
function showReplay() {
  if (!rp) {
    updateReplayBar();
    return;
  }
  const r = rp.replay;
  renderer.explored = r.status;
  renderer.scores = r;
  renderer.invalidateOverlay();
  renderer.current = r.atEnd ? -1 : r.current;
  renderer.path = r.atEnd && rp.path.length ? rp.path : null;
  renderer.route = r.atEnd && planned ? planned.route : null;
  if (r.atEnd) {
    if (!rp.driven && rp.path.length) {
      startDrive(rp.path);
      rp.driven = true;
    }
  } else if (rp.driven || unit.route) {
    unit.placeAt(rp.start);
    rp.driven = false;
  }
  updateReplayBar();
  needsDraw = true;
}

/**
 * Drive the unit along the last plan: its lines and arcs when it has them
 * (slowing in the speed limits, pivoting at corners), else the tile path.
 * Very long paths are driven faster so the drive takes at most a minute.
 * @param {Array<[number, number]>} path
 */
function startDrive(path) {
  const now = performance.now();
  const length = planned ? planned.route.length : pathLength(path);
  unit.setSpeed(Math.max(Number(speedInput.value) || 8, length / 60), now);
  if (planned) unit.driveRoute(planned.route, now, { limits: planned.limits, pivots: planned.pivots });
  else unit.drive(path, now);
}

/** @param {Array<[number, number]>} path */
function pathLength(path) {
  let d = 0;
  for (let i = 1; i < path.length; i++) d += Math.hypot(path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1]);
  return d;
}

function updateReplayBar() {
  const has = !!rp;
  const r = rp?.replay;
  rpButtons.start.disabled = !r || r.k === 0;
  rpButtons.back.disabled = !r || r.k === 0;
  rpButtons.step.disabled = !r || r.atEnd;
  rpButtons.end.disabled = !r || r.atEnd;
  rpButtons.play.disabled = !has;
  const playing = !!r && r.playing;
  rpButtons.play.classList.toggle('playing', playing);
  rpButtons.play.setAttribute('aria-label', playing ? 'Pause' : 'Play');
  rpPos.textContent = r ? `expansion ${fmt(r.k)} of ${fmt(r.n)}${r.atEnd ? ' (end)' : ''}` : 'no search to replay';
}

/** @param {number} k */
function seekReplay(k) {
  if (!rp) return;
  rp.replay.playing = false;
  rp.replay.seek(k);
  showReplay();
}

/** @param {number} d */
function stepReplay(d) {
  if (!rp) return;
  seekReplay(rp.replay.k + d);
}

function togglePlay() {
  if (!rp) return;
  const r = rp.replay;
  if (r.playing) {
    r.playing = false;
  } else {
    if (r.atEnd) r.seek(0);
    r.playing = true;
    rpLast = performance.now();
    rpAcc = 1; // the first expansion shows at once
  }
  showReplay();
}

/** @param {number} now */
function advanceReplay(now) {
  if (!rp || !rp.replay.playing) return;
  const r = rp.replay;
  rpAcc += ((now - rpLast) / 1000) * rpSpeedValue;
  rpLast = now;
  const steps = Math.floor(rpAcc);
  if (steps > 0) {
    rpAcc -= steps;
    r.step(steps);
    if (r.atEnd) r.playing = false;
    showReplay();
  }
}

/** A map edit ends the replay: show the search's final state (dimmed as stale). */
function endReplay() {
  if (!rp) return;
  const r = rp.replay;
  r.playing = false;
  r.seek(r.n);
  renderer.explored = r.status;
  renderer.invalidateOverlay();
  renderer.current = -1;
  renderer.path = rp.path.length ? rp.path : null;
  rp = null;
  updateReplayBar();
}

/** A new map or search: forget the replay. */
function dropReplay() {
  rp = null;
  renderer.current = -1;
  updateReplayBar();
}

rpButtons.start.addEventListener('click', () => seekReplay(0));
rpButtons.back.addEventListener('click', () => stepReplay(-1));
rpButtons.play.addEventListener('click', togglePlay);
rpButtons.step.addEventListener('click', () => stepReplay(1));
rpButtons.end.addEventListener('click', () => seekReplay(Infinity));
rpSpeed.addEventListener('input', () => {
  rpSpeedValue = sliderToSpeed(Number(rpSpeed.value));
  rpSpeedOut.textContent = `${fmt(rpSpeedValue)}/s`;
});
rpSpeedOut.textContent = `${fmt(rpSpeedValue)}/s`;

// ---------------------------------------------------------------- animation

/** @param {number} now */
function frameLoop(now) {
  advanceReplay(now);
  const wasMoving = unit.moving;
  unit.update(now);
  // The unit is drawn once it has a path to drive (before that it would hide the S marker).
  renderer.unit = unit.route ? unit.pose : null;
  if (needsDraw || wasMoving) {
    renderer.draw();
    needsDraw = false;
  }
  requestAnimationFrame(frameLoop);
}

/** Draw now if a frame is owed (read-backs must see what is on screen). */
function drawNow() {
  if (needsDraw) {
    unit.update(performance.now());
    renderer.unit = unit.route ? unit.pose : null;
    renderer.draw();
    needsDraw = false;
  }
}

// ---------------------------------------------------------------- engine

const engine = new Engine(new URL('./worker.js', import.meta.url), (boot) => {
  if (boot.stage === 'ready') {
    engineState = 'ready';
    if (!searching) setStatus('ready', `${boot.message}. Press Enter or click Find path.`, 1);
    engine
      .request({ type: 'info' })
      .then(applyInfo)
      .catch((e) => setStatus('error', `Error: the engine could not list its methods: ${messageOf(e)}`, 0));
  } else if (boot.stage === 'failed') {
    engineState = 'failed';
    setStatus('error', boot.message, 0);
  } else {
    setStatus('loading', `${boot.message} ${Math.round(boot.progress * 100)}%`, boot.progress);
  }
  updateButtons();
});
describer = engine;
updateOptionsUi();

/**
 * @param {unknown} p
 * @param {string} name
 * @returns {[number, number]}
 */
function checkTile(p, name) {
  if (!Array.isArray(p) || p.length !== 2 || !p.every((v) => typeof v === 'number' && Number.isInteger(v))) {
    throw new Error(`${name} must be a tile [x, y] of two integers (got ${JSON.stringify(p)})`);
  }
  return /** @type {[number, number]} */ ([p[0], p[1]]);
}

/** The map's terrain costs as the service takes them: [[code, cost or null], ...]. */
function terrainCosts() {
  /** @type {Array<[number, number | null]>} */
  const out = [];
  model.costs.forEach((c, code) => {
    if (c !== undefined) out.push([code, c]);
  });
  return out;
}

// ---------------------------------------------------------------- the unit and Pinter's Figure 1

/**
 * The last plan's realistic path, when it has one.
 * @type {{route: SegmentPath, limits: Array<[number, number, number]>, pivots: number[]} | null}
 */
let planned = null;

for (const [value, text] of TURNING_CHOICES) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  unitEls.turning.append(o);
}
unitEls.turning.value = '';

/** The unit's settings as typed, with the errors of the ones that cannot be sent. */
function readUnit() {
  return parseUnit({
    turning: unitEls.turning.value,
    radius: unitEls.radius.value,
    width: unitEls.width.value,
    can_reverse: unitEls.can_reverse.checked,
    art: unitEls.art.value,
  });
}

/**
 * The plan options for the unit with a turning method (null: the tile path).
 * @param {import('./controls.js').UnitOptions} u
 * @param {string | null} turning
 */
function unitOptions(u, turning) {
  /** @type {Record<string, unknown>} */
  const o = {};
  if (u.width !== null) o.width = u.width;
  if (turning) {
    o.turning = turning;
    o.radius = u.radius;
    o.can_reverse = u.can_reverse;
    if (u.art !== null) o.art = u.art;
  }
  return o;
}

/** Show the unit settings' errors inline, and enable what applies. */
function updateUnitUi() {
  const { values, errors } = readUnit();
  const turning = !!values.turning;
  unitEls.art.disabled = !turning;
  for (const [k, el] of Object.entries(unitEls)) {
    if (errors[k]) el.setAttribute('aria-invalid', 'true');
    else el.removeAttribute('aria-invalid');
  }
  const msgs = Object.values(errors);
  unitError.hidden = msgs.length === 0;
  unitError.textContent = msgs.join('\n');
}

for (const el of Object.values(unitEls)) {
  el.addEventListener('input', updateUnitUi);
  el.addEventListener('change', updateUnitUi);
}

/** The colours of Pinter's Figure 1, one per plan. */
const COMPARE_COLORS = { raw: '#c9d1d9', smooth: '#4cc9f0', ignore: '#f72585', chosen: '#ffb347' };

/**
 * The last comparison: one entry per plan.
 * @type {Array<{key: string, label: string, color: string, visible: boolean, status: string, length: number | null,
 *   turns: number | null, legal: boolean | null, message: string, route: SegmentPath | null,
 *   tiles: Array<[number, number]> | null, blocked: Array<[number, number]>}> | null}
 */
let compared = null;

/** Changes of direction along a tile path. @param {Array<[number, number]>} tiles */
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
 * Pinter's Figure 1, live: the same query planned four ways, one after the
 * other through the engine (raw A*, smoothed, smoothed with turns ignoring
 * walls, the chosen legal method), drawn together; the unit drives the last.
 * @param {[number, number]} start
 * @param {[number, number]} goal
 * @returns {Promise<LastResult>}
 */
async function compare(start, goal) {
  const { options: base, errors } = readOptions();
  const u = readUnit();
  const problems = [...Object.values(errors), ...Object.values(u.errors), ...costErrors.values()];
  if (problems.length) return search(start, goal); // reports the problem, sends nothing
  const chosen = u.values.turning && LEGAL_TURNING.includes(u.values.turning) ? u.values.turning : 'tighter';
  const width = u.values.width ?? 1;
  const plans = [
    { key: 'raw', label: 'A* (tile path)', turning: null },
    { key: 'smooth', label: 'Smoothed', turning: 'smooth' },
    { key: 'ignore', label: 'Smoothed + turns, walls ignored', turning: 'ignore' },
  ];
  compared = null;
  compareLegend.hidden = true;
  /** @type {NonNullable<typeof compared>} */
  const entries = [];
  const version = model.version;
  for (const p of plans) {
    setStatus('searching', `Compare: planning ${p.label}… (${entries.length + 1} of 4)`, null);
    searching = true;
    updateButtons();
    /** @type {any} */
    let res;
    try {
      res = await engine.findPath({
        map: { width: model.width, height: model.height, version, cells: model.cells, terrainCosts: terrainCosts() },
        start,
        goal,
        options: /** @type {any} */ ({ ...base, trace: false, ...unitOptions({ ...u.values, width }, p.turning) }),
      });
    } catch (e) {
      searching = false;
      updateButtons();
      if (e instanceof CancelledError) setStatus('cancelled', 'Compare cancelled.', 0);
      else setStatus('error', `Error: ${messageOf(e)}`, 0);
      throw e;
    }
    const tiles = Array.isArray(res.path) ? res.path.map((/** @type {number[]} */ q) => /** @type {[number, number]} */ ([q[0], q[1]])) : [];
    let route = null;
    if (p.turning && hasPath(res.status) && Array.isArray(res.segments)) route = SegmentPath.fromJson(res.segments);
    const found = hasPath(res.status);
    entries.push({
      key: p.key,
      label: p.label,
      color: COMPARE_COLORS[/** @type {keyof typeof COMPARE_COLORS} */ (p.key)],
      visible: true,
      status: res.status,
      length: found ? (route ? res.segments_length ?? route.length : res.length) : null,
      turns: found ? (route ? res.turns ?? 0 : tileTurns(tiles)) : null,
      // The tile path is planned for the same body (clearance A*): it never touches a wall.
      legal: found ? (route ? res.legal ?? null : true) : false,
      message: res.message || '',
      route,
      tiles: route ? null : tiles,
      blocked: route && Array.isArray(res.blocked) ? res.blocked : [],
    });
  }
  searching = false;
  const out = await search(start, goal, chosen);
  entries.push({
    key: 'chosen',
    label: `Legal: ${chosen}`,
    color: COMPARE_COLORS.chosen,
    visible: true,
    status: out.status,
    length: hasPath(out.status) ? out.segmentsLength ?? out.length ?? null : null,
    turns: hasPath(out.status) ? out.turns ?? 0 : null,
    legal: hasPath(out.status) ? out.legal ?? null : false,
    message: out.message || '',
    route: planned ? planned.route : null,
    tiles: planned ? null : out.path || null,
    blocked: out.blocked || [],
  });
  compared = entries;
  renderer.compare = entries;
  showCompareLegend();
  const shown = statusText.textContent || '';
  setStatus(statusBox.dataset.state || 'found', `Compare (Pinter's Figure 1): 4 plans drawn · ${shown}`, 1);
  needsDraw = true;
  return out;
}

/** The legend of the comparison: colour, name, length, turns, legal; a checkbox to show each. */
function showCompareLegend() {
  compareLegend.replaceChildren();
  if (!compared) {
    compareLegend.hidden = true;
    return;
  }
  const h = document.createElement('h3');
  h.textContent = "Pinter's Figure 1: one query, four ways";
  const table = document.createElement('table');
  const head = table.insertRow();
  for (const t of ['', 'length', 'turns', 'legal']) {
    const th = document.createElement('th');
    th.textContent = t;
    head.append(th);
  }
  compared.forEach((e, i) => {
    const tr = table.insertRow();
    tr.dataset.testid = `compare-${e.key}`;
    const c0 = tr.insertCell();
    const lab = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = e.visible;
    box.dataset.testid = `compare-show-${e.key}`;
    box.addEventListener('change', () => {
      e.visible = box.checked;
      needsDraw = true;
    });
    const sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = e.color;
    lab.append(box, ' ', sw, `${String.fromCharCode(97 + i)}. ${e.label}`);
    c0.append(lab);
    const found = hasPath(e.status);
    const c1 = tr.insertCell();
    c1.className = 'num';
    c1.textContent = found && e.length !== null ? e.length.toFixed(2) : '–';
    const c2 = tr.insertCell();
    c2.className = 'num';
    c2.textContent = found && e.turns !== null ? String(e.turns) : '–';
    const c3 = tr.insertCell();
    c3.dataset.testid = `compare-legal-${e.key}`;
    c3.className = e.legal ? 'ok' : 'bad';
    c3.textContent = found ? (e.legal ? '\u2713' : '\u2717') : 'no path';
    c3.title = e.message || (e.legal ? 'the body never overlaps a wall' : 'the body overlaps a wall');
  });
  const tr = table.insertRow();
  tr.className = 'disabled';
  const c = tr.insertCell();
  c.colSpan = 4;
  const lab = document.createElement('label');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.disabled = true;
  lab.append(box, ' e. Directional A* (coming)');
  c.append(lab);
  compareLegend.append(h, table);
  compareLegend.hidden = false;
}

compareBox.addEventListener('change', () => {
  updateUnitUi();
  if (!compareBox.checked) {
    renderer.compare = null;
    compareLegend.hidden = true;
    needsDraw = true;
  } else if (compared) {
    renderer.compare = compared;
    compareLegend.hidden = false;
    needsDraw = true;
  }
});

/**
 * Run a search from start to goal on the current map, show it, drive the unit.
 * @param {[number, number]} start
 * @param {[number, number]} goal
 * @returns {Promise<LastResult>}  rejects on error or cancel (the status line says which)
 */
async function runSearch(start, goal) {
  try {
    if (compareBox.checked) return await compare(start, goal);
    return await search(start, goal);
  } finally {
    searchCount++;
  }
}

/**
 * @param {[number, number]} start
 * @param {[number, number]} goal
 * @param {string | null} [turningOverride]  plan with this turning method instead of the chosen one
 * @returns {Promise<LastResult>}
 */
async function search(start, goal, turningOverride) {
  const { options: baseOptions, errors } = readOptions();
  const unitRead = readUnit();
  const turning = turningOverride === undefined ? unitRead.values.turning : turningOverride;
  const options = { ...baseOptions, ...unitOptions(unitRead.values, turning) };
  const problems = [...Object.values(errors), ...Object.values(unitRead.errors), ...costErrors.values()];
  if (problems.length) {
    updateOptionsUi();
    updateUnitUi();
    const message = `Not searching: ${problems[0]}`;
    setStatus('error', message, 0);
    throw new Error(message);
  }
  if (searching) engine.cancel();
  searching = true;
  updateButtons();
  dropReplay();
  const version = model.version;
  const width = model.width;
  const height = model.height;
  let expanded = 0;
  if (engineState !== 'ready') setStatus('searching', 'Waiting for the engine to load, then searching…', null);
  else setStatus('searching', 'Searching…', null);
  const t0 = performance.now();
  /** @type {SearchResult} */
  let res;
  try {
    res = await engine.findPath({
      map: { width, height, version, cells: model.cells, terrainCosts: terrainCosts() },
      start,
      goal,
      options: /** @type {any} */ (options),
      onProgress: (p) => {
        expanded = p.expanded;
        if (searching) {
          setStatus('searching', `Searching… ${fmt(p.expanded)} nodes expanded, ${fmt(p.open)} open (${fixed((performance.now() - t0) / 1000)} s)`, null);
        }
      },
    });
  } catch (e) {
    const err = /** @type {Error} */ (e);
    if (err instanceof CancelledError) {
      lastResult = { status: 'cancelled', expanded, start, goal, version };
      // A newer search may already own the status line.
      if (!searching || engine.current === null) {
        searching = false;
        setStatus('cancelled', `Search cancelled after ${fmt(expanded)} nodes expanded (${fixed((performance.now() - t0) / 1000)} s).`, 0);
      }
    } else {
      searching = false;
      lastResult = { status: 'error', message: err.message, start, goal, version };
      setStatus('error', `Error: ${err.message}`, 0);
    }
    updateButtons();
    throw err;
  }
  searching = false;
  const path = Array.isArray(res.path) ? res.path.map((p) => /** @type {[number, number]} */ ([p[0], p[1]])) : [];
  const scenario = scenarioFor(start, goal);
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
  };
  lastResult = out;
  planned = null;
  if (turning && Array.isArray(res.segments) && hasPath(res.status)) {
    out.segments = res.segments;
    out.legal = res.legal ?? null;
    out.blocked = Array.isArray(res.blocked) ? res.blocked : [];
    out.speedLimits = Array.isArray(res.speed_limits) ? res.speed_limits : [];
    out.turns = res.turns ?? 0;
    out.segmentsLength = res.segments_length ?? null;
    try {
      const route = SegmentPath.fromJson(res.segments);
      planned = { route, limits: out.speedLimits, pivots: route.corners() };
    } catch (e) {
      console.warn(messageOf(e));
    }
  }
  unit.width = turning ? (options.width ?? 1) : (options.width ?? null);
  renderer.unitWidth = unit.width;

  /** @type {Replay | null} */
  let replay = null;
  if (res.trace && width === model.width && height === model.height) {
    try {
      replay = new Replay(/** @type {any} */ (res.trace), width, height);
      replay.seek(replay.n);
    } catch (e) {
      console.warn(messageOf(e));
      replay = null;
    }
  }
  out.replay = !!replay;
  unit.placeAt(start);
  if (replay) {
    renderer.setResult(replay.status, path, replay);
    renderer.formatScore = scoreFormat(options.costs);
    rp = { replay, path, start, format: renderer.formatScore, driven: false };
    showReplay();
  } else {
    renderer.setResult(res.explored || null, path);
    if (hasPath(res.status) && path.length) startDrive(path);
  }
  if (planned) {
    renderer.route = planned.route;
    renderer.blocked = out.blocked || [];
  }
  renderer.stale = version !== model.version;

  const stats = `${fmt(res.expanded)} nodes expanded · ${fixed(res.ms)} ms`;
  let bench = '';
  if (scenario) {
    const verdict = benchVerdict(hasPath(res.status) ? res.length : null, scenario.optimal);
    out.matchesOptimal = verdict.ok;
    benchResult.textContent = verdict.text;
    benchResult.className = `bench-result ${verdict.ok ? 'ok' : 'bad'}`;
    bench = verdict.text;
  }
  if (res.status === 'not_legal') {
    setStatus('no_path', `Path found but ${res.message || 'not legal for this unit'} · ${stats}`, 1);
  } else if (res.status === 'found' && planned) {
    const slow = out.speedLimits?.length ? ` · slows down in ${out.speedLimits.length} stretch${out.speedLimits.length > 1 ? 'es' : ''}` : '';
    setStatus('found', `Legal path (${turning}): length ${fixed(out.segmentsLength ?? res.length, 2)}, ${out.turns} turn${out.turns === 1 ? '' : 's'}${slow} · ${stats}`, 1);
  } else if (res.status === 'found' && path.length) {
    const quality = res.optimal === true ? ' (shortest)' : res.optimal === false ? ' (not guaranteed shortest)' : '';
    const length = scenario ? bench : `length ${fixed(res.length, 1)}`;
    setStatus('found', `Path found${quality}: ${fmt(path.length)} tiles, ${length}, cost ${fixed(res.cost ?? NaN, 1)} · ${stats}`, 1);
  } else if (res.status === 'no_path' || res.status === 'unreachable') {
    const body = unit.width ? ` for a unit ${fixed(unit.width, 2)} tiles wide${turning ? ` turning on radius ${options.radius}` : ''}` : '';
    setStatus('no_path', `No path${body}: the goal cannot be reached from the start · ${stats}${bench ? ` · ${bench}` : ''}`, 1);
  } else {
    const why = res.message ? `: ${res.message}` : '';
    setStatus('no_path', `No path (${res.status.replace(/_/g, ' ')})${why} · ${stats}`, 1);
  }
  updateButtons();
  needsDraw = true;
  return out;
}

/** The Find path button and Enter. */
function findFromUi() {
  if (engineState !== 'ready') {
    findHint.hidden = false;
    findHint.textContent = 'Still loading the engine: Find path will be enabled in a moment. You can keep editing.';
    return;
  }
  runSearch([...model.start], [...model.goal]).catch(() => {
    /* shown in the status line */
  });
}

function cancelFromUi() {
  if (searching) engine.cancel();
}

// ---------------------------------------------------------------- benchmarks and scenarios

/**
 * The scenarios offered for the map shown.
 * @type {{name: string, scenarios: Scenario[], chosen: Scenario | null} | null}
 */
let bench = null;
/** @type {Array<{name: string, map: string, scen: string, width: number, height: number}>} */
let benchIndex = [];

/**
 * The chosen scenario, if start and goal are its.
 * @param {[number, number]} start
 * @param {[number, number]} goal
 */
function scenarioFor(start, goal) {
  const sc = bench?.chosen;
  if (!sc) return null;
  const same = (/** @type {number[]} */ a, /** @type {number[]} */ b) => a[0] === b[0] && a[1] === b[1];
  return same(sc.start, start) && same(sc.goal, goal) ? sc : null;
}

function showBenchHint() {
  if (!bench) return;
  // Undo and redo move the markers between scenarios: keep the picker in step.
  const same = (/** @type {number[]} */ a, /** @type {number[]} */ b) => a[0] === b[0] && a[1] === b[1];
  const match = bench.scenarios.find((s) => same(s.start, model.start) && same(s.goal, model.goal));
  if (match && match !== bench.chosen) {
    bench.chosen = match;
    if (bucketSel.value !== String(match.bucket)) {
      bucketSel.value = String(match.bucket);
      fillScenarioOptions();
    }
    scenarioSel.value = String(match.id);
  }
  const sc = scenarioFor(model.start, model.goal);
  const r = lastResult;
  const searched = !!sc && !!r && r.version === model.version && !!r.start && !!r.goal && same(r.start, sc.start) && same(r.goal, sc.goal);
  if (searched) return; // the verdict of its search stays
  benchResult.textContent = !sc
    ? bench.chosen
      ? 'Start or goal moved: not the scenario any more.'
      : ''
    : `optimal length ${sc.optimal.toFixed(2)}: press Enter to search`;
  benchResult.className = 'bench-result';
}

/**
 * Offer a scenario list for the map shown.
 * @param {string} name
 * @param {Scenario[]} scenarios
 */
function setScenarios(name, scenarios) {
  bench = { name, scenarios, chosen: null };
  const buckets = [...new Set(scenarios.map((s) => s.bucket))].sort((a, b) => a - b);
  bucketSel.textContent = '';
  for (const b of buckets) {
    const these = scenarios.filter((s) => s.bucket === b);
    const lo = Math.min(...these.map((s) => s.optimal));
    const hi = Math.max(...these.map((s) => s.optimal));
    const opt = document.createElement('option');
    opt.value = String(b);
    opt.textContent = `${b}: ${fixed(lo, 1)}${hi > lo ? `\u2013${fixed(hi, 1)}` : ''} (${these.length})`;
    opt.title = `bucket ${b}: ${these.length} scenarios, optimal lengths ${fixed(lo, 2)} to ${fixed(hi, 2)}`;
    bucketSel.append(opt);
  }
  scenarioBox.hidden = false;
  // Start with the hardest bucket: the longest paths.
  bucketSel.value = String(buckets[buckets.length - 1]);
  fillScenarios();
}

/** List the chosen bucket's scenarios in the scenario picker. */
function fillScenarioOptions() {
  if (!bench) return;
  const b = Number(bucketSel.value);
  scenarioSel.textContent = '';
  for (const s of bench.scenarios.filter((x) => x.bucket === b)) {
    const opt = document.createElement('option');
    opt.value = String(s.id);
    opt.textContent = `#${s.id}: ${s.optimal.toFixed(2)}, (${s.start[0]},${s.start[1]})\u2192(${s.goal[0]},${s.goal[1]})`;
    opt.title = `scenario ${s.id}: from (${s.start[0]}, ${s.start[1]}) to (${s.goal[0]}, ${s.goal[1]}), optimal length ${s.optimal}`;
    scenarioSel.append(opt);
  }
}

/** A bucket was chosen: list it and take its first scenario. */
function fillScenarios() {
  fillScenarioOptions();
  chooseScenario(Number(scenarioSel.value));
}

/** @param {number} id */
function chooseScenario(id) {
  if (!bench) return;
  const sc = bench.scenarios.find((s) => s.id === id);
  if (!sc) return;
  if (String(sc.bucket) !== bucketSel.value) {
    bucketSel.value = String(sc.bucket);
    fillScenarioOptions();
  }
  scenarioSel.value = String(id);
  bench.chosen = sc;
  model.setMarkers(sc.start, sc.goal, `choose scenario ${id}`);
  showBenchHint();
}

function clearScenarios() {
  bench = null;
  scenarioBox.hidden = true;
  bucketSel.textContent = '';
  scenarioSel.textContent = '';
  benchResult.textContent = '';
}

bucketSel.addEventListener('change', fillScenarios);
scenarioSel.addEventListener('change', () => chooseScenario(Number(scenarioSel.value)));

async function loadBenchIndex() {
  benchGroup.textContent = '';
  try {
    const resp = await fetch(new URL('benchmarks/index.json', document.baseURI));
    if (!resp.ok) throw new Error(`HTTP ${resp.status}`);
    const list = await resp.json();
    if (!Array.isArray(list)) throw new Error('index.json is not a list');
    benchIndex = list.filter(
      (e) => e && typeof e.name === 'string' && typeof e.map === 'string' && (typeof e.scen === 'string' || e.scen == null),
    );
  } catch {
    benchIndex = [];
  }
  if (!benchIndex.length) {
    const opt = document.createElement('option');
    opt.value = '';
    opt.disabled = true;
    opt.textContent = 'none in this build (the shared Moving AI maps were not found)';
    benchGroup.append(opt);
    return;
  }
  for (const e of benchIndex) {
    const opt = document.createElement('option');
    opt.value = `bench:${e.name}`;
    opt.textContent = Number.isInteger(e.width) && Number.isInteger(e.height) ? `${e.name} ${e.width}x${e.height}` : e.name;
    benchGroup.append(opt);
  }
}

/** @param {string} path  relative to the site root */
async function fetchText(path) {
  const resp = await fetch(new URL(path, document.baseURI));
  if (!resp.ok) throw new Error(`could not fetch ${path} (HTTP ${resp.status})`);
  return resp.text();
}

// ---------------------------------------------------------------- maps

/**
 * Show a new map.
 * @param {{width: number, height: number, cells: Uint8Array, start?: [number, number] | null,
 *          goal?: [number, number] | null, costs?: Array<number | null>}} map
 * @param {string} key  its map menu entry ('' for a file)
 */
function showMap(map, key) {
  if (searching) engine.cancel();
  planned = null;
  compared = null;
  compareLegend.hidden = true;
  clearScenarios();
  model.load(map);
  lastResult = null;
  mapKey = key;
  if (key) mapSel.value = key;
  else mapSel.selectedIndex = -1;
  fitView();
}

/** @param {string} which */
async function openPreset(which) {
  if (which === 'maze') {
    showMap(serpentineMap(1024, 8), which);
  } else if (which === 'empty') {
    showMap(emptyMap(64, 48), which);
  } else if (which === 'lester') {
    showMap({ ...lesterMap(), costs: DEFAULT_TERRAINS.map((t) => t.cost) }, which);
    setOptions(LESTER_OPTIONS);
    setStatus(
      engineState === 'ready' ? 'ready' : 'loading',
      "Lester's example: A*, 10/14 step costs, Manhattan \u00D7 10, no corner cutting. Press Enter, then Home, and step with . (back with ,).",
    );
  } else if (which.startsWith('bench:')) {
    await openBenchmark(which.slice(6));
  } else {
    showMap(await fetchExample(), 'example');
  }
}

/** @param {string} name */
async function openBenchmark(name) {
  const entry = benchIndex.find((e) => e.name === name);
  if (!entry) throw new Error(`there is no benchmark map named ${name}`);
  setStatus('loading', `Opening the benchmark map ${name}…`, null);
  const mapText = await fetchText(entry.map);
  const resp = await engine.request({ type: 'load_map', text: mapText });
  const map = mapFromAnswer(resp, mapText, entry.map, terrainOf, model.costs);
  /** @type {Scenario[]} */
  let scenarios = [];
  let scenError = '';
  if (entry.scen) {
    // A broken scenario file does not keep the map from opening.
    try {
      const scenText = await fetchText(entry.scen);
      const sresp = await engine.request({ type: 'load_scen', text: scenText, width: map.width, height: map.height });
      scenarios = sresp.scenarios || [];
    } catch (e) {
      scenError = messageOf(e);
    }
  }
  showMap(map, `bench:${name}`);
  setOptions(BENCHMARK_OPTIONS);
  if (scenarios.length) setScenarios(name, scenarios);
  const opened = `Opened ${name} (${map.width} x ${map.height}, ${fmt(scenarios.length)} scenarios).`;
  if (scenError) {
    setStatus('error', `${opened} Error: its scenarios could not be read: ${scenError}`, 0);
  } else {
    setStatus(
      engineState === 'ready' ? 'ready' : 'loading',
      `${opened} Benchmark metric set: 8 neighbours, no corner cutting, 1 / \u221A2 steps, octile heuristic.`,
      1,
    );
  }
}

async function fetchExample() {
  return parseAscii(await fetchText('maps/example.txt'));
}

/**
 * Open files (dropped or chosen): maps first, then scenario files for them.
 * @param {FileList | File[]} files
 */
async function openFiles(files) {
  const list = [...files].sort((a, b) => Number(/\.scen$/i.test(a.name)) - Number(/\.scen$/i.test(b.name)));
  for (const f of list) {
    if (!(await openFile(f))) break;
  }
}

/**
 * @param {File} file
 * @returns {Promise<boolean>} whether it was opened (errors go to the status line)
 */
async function openFile(file) {
  const name = file.name || 'the file';
  try {
    if (file.size > MAX_FILE_BYTES) {
      throw new Error(`the file is ${(file.size / 1048576).toFixed(0)} MB; the lab opens files of at most ${MAX_FILE_BYTES / 1048576} MB`);
    }
    /** @type {string} */
    let text;
    try {
      text = await file.text();
    } catch (e) {
      throw new Error(`the file could not be read (${messageOf(e)})`);
    }
    if (engineState !== 'ready') setStatus('loading', `Waiting for the engine to read ${name}…`, null);
    if (/\.scen$/i.test(name)) {
      const resp = await engine.request({ type: 'load_scen', text, width: model.width, height: model.height });
      const scenarios = /** @type {Scenario[]} */ (resp.scenarios || []);
      if (!scenarios.length) throw new Error('it holds no scenarios');
      setScenarios(name, scenarios);
      setStatus('ready', `Opened ${name}: ${fmt(scenarios.length)} scenarios for this ${model.width} x ${model.height} map.`, 1);
    } else {
      const resp = await engine.request({ type: 'load_map', text });
      const map = mapFromAnswer(resp, text, name, terrainOf, model.costs);
      showMap(map, '');
      setStatus('ready', `Opened ${name} (${map.width} x ${map.height}).`, 1);
    }
    return true;
  } catch (e) {
    setStatus('error', `Error: ${name}: ${messageOf(e)}`, 0);
    return false;
  }
}

fileInput.addEventListener('change', async () => {
  const files = fileInput.files ? [...fileInput.files] : [];
  fileInput.value = '';
  if (files.length) await openFiles(files);
});

// Drop a file on the map.
let dragDepth = 0;
const dropZone = /** @type {HTMLElement} */ (canvas.parentElement);
dropZone.addEventListener('dragenter', (e) => {
  if (!e.dataTransfer || ![...e.dataTransfer.types].includes('Files')) return;
  e.preventDefault();
  dragDepth++;
  dropHint.hidden = false;
});
dropZone.addEventListener('dragover', (e) => {
  if (!e.dataTransfer || ![...e.dataTransfer.types].includes('Files')) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = 'copy';
});
dropZone.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (!dragDepth) dropHint.hidden = true;
});
dropZone.addEventListener('drop', (e) => {
  e.preventDefault();
  dragDepth = 0;
  dropHint.hidden = true;
  const files = e.dataTransfer ? [...e.dataTransfer.files] : [];
  if (files.length) openFiles(files);
});

// ---------------------------------------------------------------- controls

findBtn.addEventListener('click', findFromUi);
cancelBtn.addEventListener('click', cancelFromUi);
undoBtn.addEventListener('click', () => model.undo());
redoBtn.addEventListener('click', () => model.redo());
clearBtn.addEventListener('click', () => model.clearWalls());
paintBtn.addEventListener('click', () => setTool('paint'));
eraseBtn.addEventListener('click', () => setTool('erase'));
speedInput.addEventListener('input', () => {
  const v = Number(speedInput.value);
  unit.setSpeed(v, performance.now());
  speedOut.textContent = `${v} tiles/s`;
});
gridBox.addEventListener('change', () => {
  renderer.showGrid = gridBox.checked;
  needsDraw = true;
});
mapSel.addEventListener('change', () => {
  const which = mapSel.value;
  const previous = mapKey;
  openPreset(which).catch((e) => {
    setStatus('error', `Error: ${messageOf(e)}`, 0);
    // The map shown did not change.
    if (previous) mapSel.value = previous;
    else mapSel.selectedIndex = -1;
  });
});
copyBtn.addEventListener('click', async () => {
  const text = toAscii(model).join('\n') + '\n';
  try {
    await navigator.clipboard.writeText(text);
    copyBtn.textContent = 'Copied';
  } catch {
    copyBtn.textContent = 'Copy failed';
  }
  setTimeout(() => (copyBtn.textContent = 'Copy text'), 1200);
});

// ---------------------------------------------------------------- keyboard

let spaceDown = false;

document.addEventListener('keydown', (e) => {
  const t = /** @type {HTMLElement} */ (e.target);
  const tag = t && t.tagName;
  const type = tag === 'INPUT' ? /** @type {HTMLInputElement} */ (t).type : '';
  const textEntry = tag === 'TEXTAREA' || (tag === 'INPUT' && !['range', 'checkbox', 'radio', 'button', 'file'].includes(type));
  const typing = textEntry || tag === 'SELECT';
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (mod && key === 'z' && !e.shiftKey) {
    if (textEntry) return;
    e.preventDefault();
    model.undo();
  } else if (mod && ((key === 'z' && e.shiftKey) || key === 'y')) {
    if (textEntry) return;
    e.preventDefault();
    model.redo();
  } else if (key === 'Enter' && !mod) {
    // Enter in a number field (weight, budget) searches; in a cost field it applies the cost.
    if (tag === 'TEXTAREA' || tag === 'SELECT' || tag === 'BUTTON' || (tag === 'INPUT' && type !== 'number' && type !== 'range' && type !== 'checkbox') || e.repeat) return;
    e.preventDefault();
    findFromUi();
  } else if (key === 'Escape') {
    if (searching) {
      e.preventDefault();
      cancelFromUi();
    } else if (rp?.replay.playing) {
      togglePlay();
    }
  } else if (key === ' ' && !mod) {
    if (typing || tag === 'BUTTON' || type === 'checkbox' || type === 'range') return;
    e.preventDefault();
    if (!e.repeat && !spaceDown) {
      spaceDown = true;
      editor.spaceHeld = true;
      editor.pannedWithSpace = false;
      canvas.dataset.space = '1';
    }
  } else if (!mod && !e.altKey && !typing) {
    const slider = type === 'range';
    if (key === 'p') setTool('paint');
    else if (key === 'e') setTool('erase');
    else if (/^[1-9]$/.test(key) && terrains[Number(key) - 1]) selectTerrain(terrains[Number(key) - 1].code);
    else if (key === '[' || key === ']') {
      const i = BRUSHES.indexOf(editor.brush);
      setBrush(BRUSHES[Math.max(0, Math.min(BRUSHES.length - 1, (i < 0 ? 0 : i) + (key === ']' ? 1 : -1)))]);
    } else if (key === '+' || key === '=') zoomBy(1.25);
    else if (key === '-' || key === '_') zoomBy(1 / 1.25);
    else if (key === '0') fitView();
    else if (key === '.' || key === '>') stepReplay(1);
    else if (key === ',' || key === '<') stepReplay(-1);
    else if (key === 'Home' && !slider && rp) {
      e.preventDefault();
      seekReplay(0);
    } else if (key === 'End' && !slider && rp) {
      e.preventDefault();
      seekReplay(Infinity);
    } else if (key.startsWith('Arrow') && !slider) {
      e.preventDefault();
      const step = Math.max(renderer.tileSize, Math.min(renderer.cssW, renderer.cssH) * 0.15);
      const dx = key === 'ArrowLeft' ? step : key === 'ArrowRight' ? -step : 0;
      const dy = key === 'ArrowUp' ? step : key === 'ArrowDown' ? -step : 0;
      renderer.panBy(dx, dy);
      syncZoomUi();
      needsDraw = true;
    }
  }
});

document.addEventListener('keyup', (e) => {
  if (e.key !== ' ' || !spaceDown) return;
  spaceDown = false;
  editor.spaceHeld = false;
  delete canvas.dataset.space;
  if (!editor.pannedWithSpace) togglePlay();
});
window.addEventListener('blur', () => {
  spaceDown = false;
  editor.spaceHeld = false;
  delete canvas.dataset.space;
});

// ---------------------------------------------------------------- window.arcstar

/** @type {(v: any) => void} */
let mapReady = () => {};
const mapLoaded = new Promise((res) => (mapReady = res));

const api = {
  /** Resolves when the example map is shown and the engine is ready to search. */
  ready: Promise.all([mapLoaded, engine.ready]).then(() => true),

  /**
   * Replace the map with ASCII rows: each terrain's character (`.` ground,
   * `#` wall, `=` road, `:` sand, `%` swamp, `^` hills, `~` water), `S` and
   * `G` for the start and the goal (optional). Throws an Error with a
   * readable message, and keeps the current map, if the rows are malformed.
   * @param {string[]} rows
   */
  setMap(rows) {
    const parsed = parseAscii(rows);
    showMap(parsed, '');
    return { width: model.width, height: model.height };
  },

  /** The current map as ASCII rows (with S and G). */
  rows() {
    return toAscii(model);
  },

  /**
   * Search (like the Find path button), draw the result and start the unit.
   * Start and goal default to the markers; given ones on open tiles also move
   * the markers.
   * @param {{start?: [number, number], goal?: [number, number]}} [opts]
   * @returns {Promise<LastResult>}
   */
  async findPath(opts = {}) {
    const start = opts.start === undefined ? [...model.start] : checkTile(opts.start, 'start');
    const goal = opts.goal === undefined ? [...model.goal] : checkTile(opts.goal, 'goal');
    if (model.isOpen(start[0], start[1])) model.moveMarker('start', /** @type {[number, number]} */ (start));
    if (model.isOpen(goal[0], goal[1])) model.moveMarker('goal', /** @type {[number, number]} */ (goal));
    return runSearch(/** @type {[number, number]} */ (start), /** @type {[number, number]} */ (goal));
  },

  /** Cancel the running search. @returns {boolean} whether one was running */
  cancel() {
    const was = searching;
    cancelFromUi();
    return was;
  },

  /**
   * Set search settings, e.g. {method: 'dijkstra', neighbours: 4}; the same
   * names and values as the plan options. Throws on an unknown one.
   * @param {Partial<SearchOptions>} partial
   */
  setOptions(partial) {
    return setOptions(partial);
  },

  /** The search settings as they would be sent, and the errors of bad fields. */
  options() {
    const { options, errors } = readOptions();
    return { ...options, errors: { ...errors, ...Object.fromEntries([...costErrors].map(([c, m]) => [`cost ${terrainName(c)}`, m])) } };
  },

  /** The terrain types with their current costs (null = impassable). */
  terrains() {
    return terrains.map((t) => ({ ...t, cost: model.costs[t.code] ?? null, selected: t.code === paintCode }));
  },

  /** The replay: {k, n, playing, speed, atEnd, current: [x, y] | null}, or null when there is none. */
  replay() {
    if (!rp) return null;
    const r = rp.replay;
    const c = r.current;
    return { k: r.k, n: r.n, playing: r.playing, speed: rpSpeedValue, atEnd: r.atEnd, current: c >= 0 ? [c % r.width, Math.floor(c / r.width)] : null };
  },

  /**
   * What the canvas shows in tile (x, y): in Lester's view (zoomed in), the
   * scores as drawn (`drawn: true`, numbers parsed from the drawn text, and
   * the text in `text`); otherwise the replayed state (`drawn: false`).
   * @param {number} x
   * @param {number} y
   */
  tileInfo(x, y) {
    if (!model.inBounds(x, y)) throw new Error(`tile (${x}, ${y}) is off the ${model.width}x${model.height} map`);
    drawNow();
    const d = renderer.drawn.get(y * model.width + x);
    if (d) {
      return { drawn: true, list: d.list, f: Number(d.f), g: Number(d.g), h: Number(d.h), parent: d.parent, text: { f: d.f, g: d.g, h: d.h } };
    }
    if (rp) return { drawn: false, ...rp.replay.tile(x, y) };
    return { drawn: false, list: null, f: null, g: null, h: null, parent: null };
  },

  /** The view: tile size (CSS px), the map's corner in the canvas, whether Lester's view is drawn. */
  view() {
    drawNow();
    return {
      tileSize: renderer.tileSize,
      ox: renderer.ox,
      oy: renderer.oy,
      width: renderer.cssW,
      height: renderer.cssH,
      fitted: renderer.fitted,
      lester: renderer.lesterView,
      lesterFrom: LESTER_TILE_PX,
    };
  },

  /**
   * Where the centre of tile (x, y) is on the screen (client CSS pixels).
   * @param {number} x
   * @param {number} y
   */
  tileToClient(x, y) {
    return renderer.toClient(x + 0.5, y + 0.5);
  },

  /** A snapshot of the page's state (tile units; heading radians, 0 = +x, pi/2 = +y). */
  state() {
    unit.update(performance.now());
    return {
      width: model.width,
      height: model.height,
      version: model.version,
      map: mapKey,
      start: [...model.start],
      goal: [...model.goal],
      searching,
      searches: searchCount,
      engine: engineState,
      canUndo: model.canUndo(),
      canRedo: model.canRedo(),
      tileSize: renderer.tileSize,
      costs: [...model.costs],
      paint: paintCode,
      brush: editor.brush,
      tool: editor.tool,
      worker: { ...engine.stats },
      lastResult: lastResult ? { ...lastResult, path: lastResult.path ? lastResult.path.map((p) => [...p]) : undefined } : null,
      unit: {
        x: unit.pose.x,
        y: unit.pose.y,
        heading: unit.pose.heading,
        moving: unit.moving,
        speed: unit.currentSpeed,
        factor: unit.factor,
        pivoting: !!unit.pivot,
        travelled: unit.travelled,
        width: unit.width,
      },
      benchmark: bench
        ? { name: bench.name, scenarios: bench.scenarios.length, chosen: bench.chosen ? { ...bench.chosen } : null }
        : null,
    };
  },

  /**
   * Pinter's Figure 1 after a Compare: [{label, key, length, turns, legal, status, visible}], or null.
   */
  compare() {
    return compared
      ? compared.map((e) => ({ key: e.key, label: e.label, length: e.length, turns: e.turns, legal: e.legal, status: e.status, visible: e.visible }))
      : null;
  },

  /** The unit's settings as they would be sent, and the errors of bad fields. */
  unitOptions() {
    const { values, errors } = readUnit();
    return { ...values, errors };
  },

  /**
   * Test hook: send a raw message to the worker (bypassing the page's checks)
   * and resolve with its answer, e.g. {type:'error', id, message}.
   * @param {any} msg
   */
  _rawPlan(msg) {
    return engine.raw(msg);
  },
};

/** @type {any} */ (window).arcstar = api;

// ---------------------------------------------------------------- start

for (const [name, values] of Object.entries(PROVISIONAL_CHOICES)) {
  fillSelect(/** @type {keyof typeof selects} */ (name), [...values]);
}
buildPalette();
setBrush(1);
updateOptionsUi();
updateUnitUi();
updateButtons();
updateReplayBar();
relayout();
requestAnimationFrame(frameLoop);
loadBenchIndex();
openPreset('example')
  .catch((e) => {
    // Still give the user a map to work on.
    showMap(emptyMap(48, 32), 'empty');
    setStatus('error', `Error: ${e.message}`, 0);
  })
  .finally(() => mapReady(true));
engine.ready.catch(() => {
  /* shown in the status line */
});
