// @ts-check
/**
 * The lab page: wires the map model, the editor, the renderer, the unit and
 * the search engine (a Web Worker running arcstar in Pyodide) together, and
 * exposes `window.arcstar` for tests and embedding.
 *
 * Coordinates are tiles: tile (x, y), x right, y down; the centre of tile
 * (x, y) is (x + 0.5, y + 0.5); headings in radians, 0 = +x, pi/2 = +y.
 *
 * @module main
 */

import { Editor } from './editor.js';
import { CancelledError, Engine } from './engine.js';
import { emptyMap, parseAscii, serpentineMap, toAscii } from './maps.js';
import { Renderer } from './render.js';
import { MapModel } from './state.js';
import { Unit } from './unit.js';

/** @typedef {import('./engine.js').SearchResult} SearchResult */

/**
 * What the page keeps of the last search (also returned by findPath).
 * @typedef {Object} LastResult
 * @property {string} status  'found' | 'no_path' | 'unreachable' | 'cancelled' | 'error'
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
const brushSel = /** @type {HTMLSelectElement} */ ($('brush'));
const mapSel = /** @type {HTMLSelectElement} */ ($('map-select'));
const fileInput = /** @type {HTMLInputElement} */ ($('file'));
const copyBtn = /** @type {HTMLButtonElement} */ ($('copy'));
const speedInput = /** @type {HTMLInputElement} */ ($('speed'));
const speedOut = $('speed-out');
const gridBox = /** @type {HTMLInputElement} */ ($('grid'));
const heuristicSel = /** @type {HTMLSelectElement} */ ($('heuristic'));
const weightInput = /** @type {HTMLInputElement} */ ($('weight'));
const diagonalSel = /** @type {HTMLSelectElement} */ ($('diagonal'));
const costsSel = /** @type {HTMLSelectElement} */ ($('costs'));
const exploredBox = /** @type {HTMLInputElement} */ ($('explored'));

const hoverBox = $('hover');

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

// ---------------------------------------------------------------- model, view, tools

const model = new MapModel(emptyMap(48, 32));
const renderer = new Renderer(canvas, frame);
const unit = new Unit(Number(speedInput.value) || 8);
/** @type {LastResult | null} */
let lastResult = null;
let searching = false;
let needsDraw = true;
let engineState = 'loading';

const editor = new Editor(canvas, model, renderer, {
  onHover: (tile) => {
    hoverBox.textContent = tile
      ? `x ${tile[0]}, y ${tile[1]}  ${model.isOpen(tile[0], tile[1]) ? 'open' : 'wall'}   ${model.width} x ${model.height}`
      : `${model.width} x ${model.height}`;
    needsDraw = true;
  },
});

function syncView() {
  renderer.setMap(model.width, model.height, model.cells);
  renderer.start = model.start;
  renderer.goal = model.goal;
  needsDraw = true;
}

model.subscribe((kind) => {
  if (kind === 'load') {
    syncView();
    renderer.setResult(null, null);
    unit.placeAt(model.start, 0);
    hoverBox.textContent = `${model.width} x ${model.height}`;
  } else if (kind === 'cells') {
    renderer.invalidateTerrain();
    markStale();
  } else if (kind === 'markers') {
    renderer.start = model.start;
    renderer.goal = model.goal;
    if (!unit.moving && !lastResult?.path?.length) unit.placeAt(model.start);
    markStale();
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

/** Apply the size and a first draw once layout is known. */
function refit() {
  renderer.fit();
  needsDraw = true;
}
window.addEventListener('resize', refit);
// The top bar can change height (a long status line wraps): keep the map inside the window.
const topbar = document.querySelector('.topbar');
if (topbar && 'ResizeObserver' in window) new ResizeObserver(() => refit()).observe(topbar);

// ---------------------------------------------------------------- animation

/** @param {number} now */
function frameLoop(now) {
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

// ---------------------------------------------------------------- engine

const engine = new Engine(new URL('./worker.js', import.meta.url), (info) => {
  if (info.stage === 'ready') {
    engineState = 'ready';
    if (!searching) setStatus('ready', `${info.message}. Press Enter or click Find path.`, 1);
  } else if (info.stage === 'failed') {
    engineState = 'failed';
    setStatus('error', info.message, 0);
  } else {
    setStatus('loading', `${info.message} ${Math.round(info.progress * 100)}%`, info.progress);
  }
  updateButtons();
});

/** Search options from the controls. */
function currentOptions() {
  const weight = Number(weightInput.value);
  return {
    heuristic: heuristicSel.value,
    weight: Number.isFinite(weight) && weight >= 0 ? weight : 1,
    diagonal: diagonalSel.value,
    costs: costsSel.value,
    trace: exploredBox.checked,
  };
}

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

/**
 * Run a search from start to goal on the current map, show it, drive the unit.
 * @param {[number, number]} start
 * @param {[number, number]} goal
 * @returns {Promise<LastResult>}  rejects on error or cancel (the status line says which)
 */
async function runSearch(start, goal) {
  if (searching) engine.cancel();
  searching = true;
  updateButtons();
  const version = model.version;
  let expanded = 0;
  if (engineState !== 'ready') setStatus('searching', 'Waiting for the engine to load, then searching…', null);
  else setStatus('searching', 'Searching…', null);
  const t0 = performance.now();
  /** @type {SearchResult} */
  let res;
  try {
    res = await engine.findPath({
      map: { width: model.width, height: model.height, version, cells: model.cells },
      start,
      goal,
      options: currentOptions(),
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
  /** @type {LastResult} */
  const out = {
    status: res.status,
    path: Array.isArray(res.path) ? res.path.map((p) => /** @type {[number, number]} */ ([p[0], p[1]])) : [],
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
  };
  lastResult = out;
  renderer.setResult(res.explored || null, out.path || null);
  renderer.stale = version !== model.version;
  const stats = `${fmt(res.expanded)} nodes expanded · ${fixed(res.ms)} ms`;
  if (res.status === 'found' && out.path && out.path.length) {
    const quality = res.optimal === true ? ' (shortest)' : res.optimal === false ? ' (not guaranteed shortest)' : '';
    setStatus(
      'found',
      `Path found${quality}: ${fmt(out.path.length)} tiles, length ${fixed(res.length, 1)}, cost ${fixed(res.cost ?? NaN, 1)} · ${stats}`,
      1,
    );
    // Steady speed; very long paths are driven faster so the drive takes at most a minute.
    unit.setSpeed(Math.max(Number(speedInput.value) || 8, (res.length || 0) / 60), performance.now());
    unit.drive(out.path, performance.now());
  } else if (res.status === 'no_path' || res.status === 'unreachable') {
    setStatus(res.status, `No path: the goal cannot be reached from the start · ${stats}`, 1);
    unit.placeAt(start);
  } else {
    const why = res.message ? `: ${res.message}` : '';
    setStatus('no_path', `No path (${res.status.replace(/_/g, ' ')})${why} · ${stats}`, 1);
    unit.placeAt(start);
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

// ---------------------------------------------------------------- maps

/** @param {string} which */
async function openPreset(which) {
  if (searching) engine.cancel();
  if (which === 'maze') {
    model.load(serpentineMap(1024, 8));
  } else if (which === 'empty') {
    model.load(emptyMap(64, 48));
  } else {
    model.load(await fetchExample());
  }
  lastResult = null;
  refit();
}

async function fetchExample() {
  const resp = await fetch(new URL('maps/example.txt', document.baseURI));
  if (!resp.ok) throw new Error(`Could not load maps/example.txt (HTTP ${resp.status})`);
  return parseAscii(await resp.text());
}

// ---------------------------------------------------------------- controls

findBtn.addEventListener('click', findFromUi);
cancelBtn.addEventListener('click', cancelFromUi);
undoBtn.addEventListener('click', () => model.undo());
redoBtn.addEventListener('click', () => model.redo());
clearBtn.addEventListener('click', () => model.clearWalls());

/** @param {'paint' | 'erase'} tool */
function setTool(tool) {
  editor.setTool(tool);
  paintBtn.classList.toggle('on', tool === 'paint');
  eraseBtn.classList.toggle('on', tool === 'erase');
  paintBtn.setAttribute('aria-checked', String(tool === 'paint'));
  eraseBtn.setAttribute('aria-checked', String(tool === 'erase'));
}
paintBtn.addEventListener('click', () => setTool('paint'));
eraseBtn.addEventListener('click', () => setTool('erase'));
brushSel.addEventListener('change', () => editor.setBrush(Number(brushSel.value)));
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
  openPreset(mapSel.value).catch((e) => setStatus('error', `Error: ${e.message}`, 0));
});
fileInput.addEventListener('change', async () => {
  const file = fileInput.files && fileInput.files[0];
  if (!file) return;
  try {
    const parsed = parseAscii(await file.text());
    if (searching) engine.cancel();
    model.load(parsed);
    lastResult = null;
    refit();
    setStatus(engineState === 'ready' ? 'ready' : 'loading', `Opened ${file.name} (${parsed.width} x ${parsed.height}).`);
  } catch (e) {
    setStatus('error', `Error: ${file.name}: ${/** @type {Error} */ (e).message}`, 0);
  } finally {
    fileInput.value = '';
  }
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

document.addEventListener('keydown', (e) => {
  const t = /** @type {HTMLElement} */ (e.target);
  const tag = t && t.tagName;
  const typing = tag === 'TEXTAREA' || tag === 'SELECT' || (tag === 'INPUT' && /** @type {HTMLInputElement} */ (t).type !== 'number' && /** @type {HTMLInputElement} */ (t).type !== 'range' && /** @type {HTMLInputElement} */ (t).type !== 'checkbox');
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (mod && key === 'z' && !e.shiftKey) {
    if (tag === 'INPUT' && /** @type {HTMLInputElement} */ (t).type === 'number') return;
    e.preventDefault();
    model.undo();
  } else if (mod && ((key === 'z' && e.shiftKey) || key === 'y')) {
    if (tag === 'INPUT' && /** @type {HTMLInputElement} */ (t).type === 'number') return;
    e.preventDefault();
    model.redo();
  } else if (key === 'Enter' && !mod && !typing && tag !== 'BUTTON' && !e.repeat) {
    e.preventDefault();
    findFromUi();
  } else if (key === 'Escape') {
    if (searching) {
      e.preventDefault();
      cancelFromUi();
    }
  } else if (!mod && !e.altKey && !typing && tag !== 'INPUT') {
    if (key === 'p') setTool('paint');
    else if (key === 'e') setTool('erase');
    else if (key === '1' || key === '2' || key === '3') {
      brushSel.value = key;
      editor.setBrush(Number(key));
      needsDraw = true;
    }
  }
});

// ---------------------------------------------------------------- window.arcstar

/** @type {(v: any) => void} */
let mapReady = () => {};
const mapLoaded = new Promise((res) => (mapReady = res));

const api = {
  /** Resolves when the example map is shown and the engine is ready to search. */
  ready: Promise.all([mapLoaded, engine.ready]).then(() => true),

  /**
   * Replace the map with ASCII rows ('.' open, '#' wall; 'S'/'G' optional).
   * Throws an Error with a readable message, and keeps the current map, if the
   * rows are malformed.
   * @param {string[]} rows
   */
  setMap(rows) {
    const parsed = parseAscii(rows);
    if (searching) engine.cancel();
    model.load(parsed);
    lastResult = null;
    refit();
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

  /** A snapshot of the page's state (tile units; heading radians, 0 = +x, pi/2 = +y). */
  state() {
    unit.update(performance.now());
    return {
      width: model.width,
      height: model.height,
      version: model.version,
      start: [...model.start],
      goal: [...model.goal],
      searching,
      engine: engineState,
      canUndo: model.canUndo(),
      canRedo: model.canRedo(),
      tileSize: renderer.tileSize,
      worker: { ...engine.stats },
      lastResult: lastResult ? { ...lastResult, path: lastResult.path ? lastResult.path.map((p) => [...p]) : undefined } : null,
      unit: { x: unit.pose.x, y: unit.pose.y, heading: unit.pose.heading, moving: unit.moving },
    };
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

updateButtons();
refit();
requestAnimationFrame(frameLoop);
openPreset('example')
  .catch((e) => {
    // Still give the user a map to work on.
    model.load(emptyMap(48, 32));
    refit();
    setStatus('error', `Error: ${e.message}`, 0);
  })
  .finally(() => mapReady(true));
engine.ready.catch(() => {
  /* shown in the status line */
});
