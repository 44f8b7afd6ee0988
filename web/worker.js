// @ts-check
/**
 * The search worker: boots Pyodide, loads numpy and the arcstar wheel, and
 * relays the page's messages to the Python service
 * (`arcstar.service.Service().handle(message_json, cells)`).
 *
 * Searches run in slices of a few milliseconds (`step` with `budget_ms`);
 * between slices the worker yields to its event loop with a MessageChannel
 * round trip (setTimeout is clamped to ~4 ms in workers), so a `cancel` or a
 * new `plan` is handled within one slice. One search runs at a time: a new
 * plan cancels the previous one. A Python exception never kills the worker:
 * it becomes {type:'error', id, message}.
 *
 * Page -> worker:
 *   {type:'plan', id, map:{width, height, version, cells?: Uint8Array, terrain_costs?}, start, goal, options}
 *   {type:'cancel', id}
 *   {type:'info', id}                          what the core offers (methods, heuristics, terrains, ...)
 *   {type:'load_map', id, text}                a .map / .json / ASCII text, read by the core
 *   {type:'load_scen', id, text, width, height} a .scen text, checked against a map of that size
 * Worker -> page:
 *   {type:'boot', stage:'pyodide'|'numpy'|'arcstar'|'ready'|'failed', progress: 0..1, message}
 *   {type:'started', id}
 *   {type:'progress', id, expanded, open}
 *   {type:'result', id, result:{status, path, cost, length, expanded, ms, optimal, message,
 *                               explored: Uint8Array | null, closed_count, open_count, trace?}}
 *   {type:'info', id, methods, heuristics, diagonal, costs, open_lists, stop, terrains, version}
 *   {type:'map', id, width, height, start, goal, terrains, cells: Uint8Array}
 *   {type:'scenarios', id, scenarios: [{id, bucket, start, goal, optimal}]}
 *   {type:'error', id, message}
 *   {type:'cancelled', id}
 *
 * Numbers in messages must be finite: JSON would silently turn NaN into null
 * (which for a terrain cost means "impassable"), so NaN and Infinity are refused.
 *
 * The site layout (see manifest.json at the site root): this file is js/worker.js,
 * the manifest names the Pyodide folder, the wheels to load, and the arcstar wheel.
 */

/** Work per slice, milliseconds. */
const SLICE_MS = 8;
/** Minimum interval between two progress messages, milliseconds. */
const PROGRESS_EVERY_MS = 50;
/** The longest map or scenario text read, characters (a 4096 x 4096 .map is about 17 M). */
const MAX_TEXT = 40 * 1024 * 1024;

const ctx = /** @type {any} */ (self);

/** @param {any} msg @param {Transferable[]} [transfer] */
function post(msg, transfer) {
  ctx.postMessage(msg, transfer || []);
}

/**
 * @param {string} stage
 * @param {number} progress
 * @param {string} message
 */
function bootProgress(stage, progress, message) {
  post({ type: 'boot', stage, progress: Math.max(0, Math.min(1, progress)), message });
}

// ---------------------------------------------------------------- yielding

const yieldChannel = new MessageChannel();
/** @type {Array<() => void>} */
const yieldWaiters = [];
yieldChannel.port1.onmessage = () => {
  const next = yieldWaiters.shift();
  if (next) next();
};

/** Let queued messages (cancel, a new plan) run, without setTimeout's clamping. */
function yieldToEventLoop() {
  return new Promise((resolve) => {
    yieldWaiters.push(/** @type {() => void} */ (resolve));
    yieldChannel.port2.postMessage(0);
  });
}

// ---------------------------------------------------------------- boot

/** @type {any} */
let pyodide = null;
/** @type {any} the Python Service instance */
let service = null;

/**
 * Load packages by URL and throw if any failed (loadPackage never rejects).
 * @param {string | string[]} urls
 * @param {string} what
 */
async function loadPackages(urls, what) {
  /** @type {string[]} */
  const errors = [];
  await pyodide.loadPackage(urls, {
    messageCallback: () => {},
    errorCallback: (/** @type {string} */ m) => errors.push(String(m)),
  });
  if (errors.length) throw new Error(`Could not load ${what}: ${errors.join(' ')}`);
}

async function boot() {
  bootProgress('pyodide', 0.02, 'Reading the site manifest…');
  const manifestUrl = new URL('../manifest.json', import.meta.url);
  const resp = await fetch(manifestUrl);
  if (!resp.ok) throw new Error(`Could not read manifest.json (HTTP ${resp.status})`);
  const manifest = await resp.json();
  const indexURL = new URL(manifest.pyodide_index || 'pyodide/', manifestUrl).href;

  bootProgress('pyodide', 0.05, 'Loading the Python runtime (Pyodide)…');
  // loadPyodide gives no progress of its own: creep towards the stage's end meanwhile.
  let p = 0.05;
  const ticker = setInterval(() => {
    p += (0.58 - p) * 0.06;
    bootProgress('pyodide', p, 'Loading the Python runtime (Pyodide)…');
  }, 150);
  try {
    const mod = await import(new URL('pyodide.mjs', indexURL).href);
    pyodide = await mod.loadPyodide({
      indexURL,
      stdout: (/** @type {string} */ s) => console.log('[python]', s),
      stderr: (/** @type {string} */ s) => console.warn('[python]', s),
    });
  } finally {
    clearInterval(ticker);
  }

  bootProgress('numpy', 0.62, 'Loading numpy…');
  const packages = /** @type {string[]} */ (manifest.packages || []);
  const numpy = packages.filter((u) => /(^|\/)numpy-[^/]*\.whl$/.test(u)).map((u) => new URL(u, manifestUrl).href);
  await loadPackages(numpy.length ? numpy : 'numpy', 'numpy');

  bootProgress('arcstar', 0.86, 'Loading arcstar…');
  if (!manifest.arcstar_wheel) throw new Error('manifest.json names no arcstar wheel');
  await loadPackages(new URL(manifest.arcstar_wheel, manifestUrl).href, 'the arcstar wheel');
  const mod = pyodide.pyimport('arcstar.service');
  service = mod.Service();
  mod.destroy?.();
  const versions = pyodide.runPython(
    'import sys, numpy, arcstar\n' +
      '"arcstar %s, Python %d.%d.%d, numpy %s" % (getattr(arcstar, "__version__", "?"), *sys.version_info[:3], numpy.__version__)',
  );
  const seconds = (performance.now() / 1000).toFixed(1);
  bootProgress('ready', 1, `Engine ready in ${seconds} s (${versions})`);
}

const booted = boot().catch((e) => {
  const message = `The engine failed to load: ${readable(e)}`;
  bootProgress('failed', 0, message);
  throw e;
});
booted.catch(() => {});

// ---------------------------------------------------------------- errors

/**
 * A one-line, readable message for an error (a Python traceback is cut to
 * its last line, e.g. "ValueError: start (3, 4) is a wall").
 * @param {any} e
 */
function readable(e) {
  const text = e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e);
  if (e && e.type && typeof e.type === 'string' && /Traceback/.test(text)) {
    const lines = text.trim().split('\n');
    return lines[lines.length - 1].trim();
  }
  return text.trim();
}

/**
 * @param {any} id
 * @param {string} message
 */
function postError(id, message) {
  post({ type: 'error', id: normId(id), message });
}

/** An id as it goes back to the page (only numbers and strings survive). */
function normId(/** @type {any} */ id) {
  return typeof id === 'number' || typeof id === 'string' ? id : null;
}

// ---------------------------------------------------------------- service calls

/**
 * Call the service with one message. Returns its parsed JSON response; a
 * Python exception or unreadable response becomes an error response.
 *
 * @param {object} message
 * @param {Uint8Array | null} [cells]
 * @returns {any}
 */
function call(message, cells = null) {
  const id = normId(/** @type {any} */ (message).id);
  /** @type {any} */
  let pyCells = null;
  try {
    const json = toJson(message);
    if (cells) pyCells = pyodide.toPy(cells);
    const out = service.handle(json, pyCells);
    const resp = JSON.parse(String(out));
    if (!resp || typeof resp !== 'object') return { type: 'error', id, message: 'The service gave an empty answer' };
    return resp;
  } catch (e) {
    return { type: 'error', id, message: readable(e) };
  } finally {
    if (pyCells && typeof pyCells.destroy === 'function') pyCells.destroy();
  }
}

/**
 * JSON for the service, refusing numbers JSON cannot carry (NaN, Infinity).
 * @param {object} message
 */
function toJson(message) {
  return JSON.stringify(message, function (key, value) {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      const where = Array.isArray(this) ? `an entry of a list` : key ? `"${key}"` : 'a value';
      throw new Error(`${where} is ${value}: numbers must be finite (use null for an impassable terrain cost)`);
    }
    return value;
  });
}

/**
 * A binary array the service holds for the last answer ("explored": one byte
 * per tile, 0 unseen, 1 open, 2 closed; "cells": a loaded map's terrain codes;
 * "trace.*": the replay arrays), copied out of Python once so it can be
 * transferred to the page.
 * @param {string} [name]
 * @returns {Uint8Array | null}
 */
function takeBuffer(name = 'explored') {
  const buf = service.take_buffer(name);
  if (!buf) return null;
  try {
    return buf.toJs();
  } finally {
    buf.destroy();
  }
}

/** Typed-array constructors for the dtypes the service names. */
const TYPED = { int32: Int32Array, float64: Float64Array, uint8: Uint8Array };

/**
 * The replay trace of a result as typed arrays (named as in arcstar.service).
 * @param {{buffers?: Record<string, string>}} spec
 * @returns {Record<string, ArrayLike<number>> | null}
 */
function takeTrace(spec) {
  if (!spec || typeof spec.buffers !== 'object') return null;
  /** @type {Record<string, any>} */
  const out = {};
  for (const [name, dtype] of Object.entries(spec.buffers)) {
    const Typed = TYPED[/** @type {keyof typeof TYPED} */ (dtype)];
    const bytes = takeBuffer(`trace.${name}`);
    if (!Typed || !bytes) return null;
    out[name] = new Typed(bytes.buffer, bytes.byteOffset, bytes.byteLength / Typed.BYTES_PER_ELEMENT);
  }
  return out;
}

// ---------------------------------------------------------------- searches

/** @type {{version: any, width: number, height: number, cells: Uint8Array} | null} */
let mapCache = null;
/** @type {any} the map version the service was last given cells of */
let serviceVersion = null;

/**
 * @typedef {Object} Job
 * @property {any} id
 * @property {boolean} cancelled
 */

/** @type {Job | null} */
let job = null;

/** @param {Job} j */
function cancelJob(j) {
  j.cancelled = true;
  if (job === j) job = null;
  call({ type: 'cancel', id: j.id });
  post({ type: 'cancelled', id: j.id });
}

/** @param {any} msg */
function startPlan(msg) {
  if (job) cancelJob(job);
  const id = normId(msg.id);
  if (id === null) return postError(msg.id, 'A plan message needs an "id" (a number or a string)');
  const map = msg.map;
  if (!map || typeof map !== 'object') return postError(id, 'A plan message needs a "map": {width, height, version, cells}');
  const { cells, ...mapInfo } = map;
  /** @type {Uint8Array | null} */
  let send = null;
  if (cells !== undefined && cells !== null) {
    if (!(cells instanceof Uint8Array)) {
      return postError(id, `map.cells must be a Uint8Array of terrain codes (got ${cells?.constructor?.name ?? typeof cells})`);
    }
    if (!Number.isInteger(map.width) || !Number.isInteger(map.height) || cells.length !== map.width * map.height) {
      return postError(
        id,
        `map.cells has ${cells.length} values but the map is ${map.width}x${map.height} (width*height values are needed)`,
      );
    }
    mapCache = { version: map.version, width: map.width, height: map.height, cells };
  }
  if (serviceVersion !== map.version || cells) {
    if (mapCache && mapCache.version === map.version) send = mapCache.cells;
  }
  const resp = call({ ...msg, map: mapInfo }, send);
  if (resp.type !== 'started') {
    serviceVersion = null;
    if (resp.type === 'error') return postError(id, resp.message || 'The search could not be started');
    return postError(id, `Unexpected answer to plan: ${JSON.stringify(resp).slice(0, 200)}`);
  }
  serviceVersion = map.version;
  const j = { id, cancelled: false };
  job = j;
  post({ type: 'started', id });
  runJob(j);
}

/** @param {Job} j */
async function runJob(j) {
  let lastProgress = 0;
  while (!j.cancelled) {
    const resp = call({ type: 'step', id: j.id, budget_ms: SLICE_MS });
    if (j.cancelled) return;
    if (resp.type === 'progress') {
      const now = performance.now();
      if (now - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = now;
        post({ type: 'progress', id: j.id, expanded: resp.expanded, open: resp.open });
      }
    } else if (resp.type === 'result') {
      if (job === j) job = null;
      const r = resp.result || {};
      const explored = r.explored ? takeBuffer('explored') : null;
      const trace = r.trace ? takeTrace(r.trace) : null;
      const transfer = [explored, ...Object.values(trace || {})].filter((a) => a).map((a) => /** @type {any} */ (a).buffer);
      post({ type: 'result', id: j.id, result: { ...r, explored, trace } }, transfer);
      return;
    } else {
      if (job === j) job = null;
      serviceVersion = null;
      postError(j.id, resp.type === 'error' ? resp.message : `Unexpected answer to step: ${JSON.stringify(resp).slice(0, 200)}`);
      return;
    }
    await yieldToEventLoop();
  }
}

/**
 * Answer a request the service handles at once (info, load_map, load_scen).
 * @param {any} msg
 */
function requestMessage(msg) {
  const id = normId(msg.id);
  if (id === null) return postError(msg.id, `A ${msg.type} message needs an "id" (a number or a string)`);
  if ((msg.type === 'load_map' || msg.type === 'load_scen') && typeof msg.text === 'string' && msg.text.length > MAX_TEXT) {
    return postError(id, `The file is too large to read (${(msg.text.length / 1048576).toFixed(0)} MB; at most ${MAX_TEXT / 1048576} MB)`);
  }
  const resp = call(msg);
  if (resp.type === 'error') {
    if (msg.type === 'load_map') takeBuffer('cells'); // drop a half-read map, if any
    return postError(id, resp.message || `The ${msg.type} request failed`);
  }
  if (msg.type === 'load_map') {
    const cells = takeBuffer('cells');
    if (!cells || cells.length !== resp.width * resp.height) {
      return postError(id, 'The map was read but its tiles did not come back');
    }
    return post({ ...resp, id, cells }, [cells.buffer]);
  }
  post({ ...resp, id });
}

/** @param {any} msg */
function cancelMessage(msg) {
  const id = normId(msg.id);
  if (job && (job.id === id || id === null)) cancelJob(job);
  else post({ type: 'cancelled', id });
}

// ---------------------------------------------------------------- dispatch

ctx.onmessage = async (/** @type {MessageEvent} */ e) => {
  const msg = e.data;
  try {
    await booted;
  } catch (err) {
    return postError(msg && msg.id, `The engine is not available: ${readable(err)}`);
  }
  try {
    if (!msg || typeof msg !== 'object' || Array.isArray(msg)) {
      return postError(null, `A message must be an object with a "type" (got ${JSON.stringify(msg)?.slice(0, 80)})`);
    }
    switch (msg.type) {
      case 'plan':
        return startPlan(msg);
      case 'cancel':
        return cancelMessage(msg);
      case 'info':
      case 'load_map':
      case 'load_scen':
        return requestMessage(msg);
      default:
        return postError(
          msg.id,
          `Unknown message type ${JSON.stringify(msg.type)}: expected "plan", "cancel", "info", "load_map" or "load_scen"`,
        );
    }
  } catch (err) {
    postError(msg && msg.id, `The worker could not handle the message: ${readable(err)}`);
  }
};

ctx.addEventListener('unhandledrejection', (/** @type {PromiseRejectionEvent} */ e) => {
  e.preventDefault();
  console.warn('[worker] unhandled rejection', e.reason);
});
