// @ts-check
/**
 * The search worker: boots Pyodide, loads numpy and the arcstar wheel, and
 * relays the page's messages to the Python service
 * (`arcstar.service.Service().handle(message_json, cells)`).
 *
 * Every message is defined in pycore/arcstar/service/protocol.schema.json
 * (typedefs in engine.js): the page sends plan, cancel, info, load_map,
 * load_scen, describe and generate; the worker answers boot, started, progress, result,
 * error, cancelled, info, map, scenarios, describe and generated. An error is
 * {type:'error', id, kind:'bad_input'|'internal', field, message}: the worker
 * passes the service's kind and field through and sets them itself for what
 * it refuses before the service sees it. A Python exception never kills the
 * worker: it becomes an 'internal' error. An error that breaks the runtime
 * itself (Pyodide's fatal errors) is answered with {type:'crashed', message},
 * and the worker closes: the page starts a new one.
 *
 * Searches run in slices of a few milliseconds (`step` with `budget_ms`);
 * between slices the worker yields to its event loop with a MessageChannel
 * round trip (setTimeout is clamped to ~4 ms in workers), so a `cancel` or a
 * new `plan` is handled within one slice. A new plan cancels the searches
 * running, unless it says `alongside: true`: then they share the slices.
 *
 * Units in motion: the page starts a world (`world_start`, its map sent as a
 * plan's is), adds, orders and removes units (`world_add`, `world_order`,
 * `world_remove`, each answered by a `world_state`) and plays or pauses it
 * (`world_run` with a speed). One scheduler (`pump`) runs everything, each
 * frame of FRAME_MS: first the world ticks that are due (dt of game time per
 * tick, scaled by the speed, so a 20 Hz world at speed 1 ticks every 50 ms;
 * it posts a `world_state`, id null, after each batch), then the fast
 * searches (those in their first FAST_SLICES slices) a slice each, then the
 * slow ones (a directional search, say) share what is left of the frame, at
 * least MIN_SLICE_MS each. A slow search thus never stalls the world: it gets
 * the time the world leaves. A world that cannot keep up drops the time it
 * owes beyond MAX_OWED_S (it runs slower than asked, and says so in `lag`).
 *
 * Binary parts: a plan's map.cells (a Uint8Array) is taken out of the message
 * and handed to the service beside the JSON; in the service's answers a
 * {name, dtype, length} descriptor stands where bytes belong, and the worker
 * swaps each for a typed array from `Service.take_buffer(name)`, transferred.
 *
 * Numbers in messages must be finite: JSON would silently turn NaN into null
 * (which for a terrain cost means "impassable"), so NaN and Infinity are refused.
 *
 * The site layout (see manifest.json at the site root): this file is js/worker.js,
 * the manifest names the Pyodide folder, the wheels to load, and the arcstar wheel.
 */

/** Work per slice, milliseconds. */
const SLICE_MS = 8;
/** The scheduler's frame: world ticks, then fast searches, then slow ones share what is left, ms. */
const FRAME_MS = 16;
/** The least a slow search gets per frame, ms (so it always moves on). */
const MIN_SLICE_MS = 2;
/** A search is fast for its first slices, then slow (it yields to the world and to fast ones). */
const FAST_SLICES = 2;
/** The longest the world's ticks may take in one frame, ms. */
const WORLD_BUDGET_MS = 10;
/** Game time the world may owe before it drops the rest (it then runs slower than asked), s. */
const MAX_OWED_S = 0.5;
/** The world's play speeds (game seconds per second). */
const SPEED_RANGE = [0.1, 16];
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

/**
 * @typedef {Object} Job  the running search
 * @property {any} id
 * @property {boolean} cancelled
 * @property {number} slices  how many slices it has had (fast for the first FAST_SLICES)
 * @property {number} lastProgress  when it last posted progress (performance.now)
 */

/**
 * @typedef {Object} WorldRun  the world's play state (the service holds the world itself)
 * @property {boolean} exists  a world was started in this worker
 * @property {boolean} running  playing
 * @property {number} speed  game seconds per second
 * @property {number} dt  game seconds per tick
 * @property {number} owed  game time due and not yet ticked, s
 * @property {number} last  when time was last counted (performance.now)
 * @property {number} lag  game time dropped because the world could not keep up, s
 * @property {{claimed: boolean, paths: boolean, team: string | null}} view  what its states tell
 */

/**
 * Everything the worker holds that changes, in one place (the worker's own app state): the
 * runtime, the service, the last map the page sent (the service may have to be given it again),
 * and the running search. None of it is the user's: the page can always send it again.
 */
const worker = {
  /** @type {any} */
  pyodide: null,
  /** @type {any} the Python Service instance */
  service: null,
  /** @type {{version: any, width: number, height: number, cells: Uint8Array} | null} */
  mapCache: null,
  /** @type {any} the map version the service was last given cells of */
  serviceVersion: null,
  /** @type {Map<any, Job>} the searches running, by id (Pinter's two matrices: see startPlan) */
  jobs: new Map(),
  /** @type {WorldRun} */
  world: { exists: false, running: false, speed: 1, dt: 0.05, owed: 0, last: 0, lag: 0, view: { claimed: false, paths: false, team: null } },
  /** whether the scheduler is running, and how to wake it early from a wait */
  pumping: false,
  /** @type {(() => void) | null} */
  wakeNow: null,
};

/**
 * The bytes at a URL, or an error naming the file.
 * @param {string} url
 * @param {string} name  the file, as the manifest names it
 * @returns {Promise<ArrayBuffer>}
 */
async function fetchBytes(url, name) {
  let resp;
  try {
    resp = await fetch(url);
  } catch (e) {
    throw new Error(`Could not load the arcstar wheel ${name}: ${readable(e)}`, { cause: e });
  }
  if (!resp.ok) throw new Error(`Could not load the arcstar wheel ${name} (HTTP ${resp.status})`);
  return resp.arrayBuffer();
}

/**
 * The snapshot's bytes; rejects (and the boot goes on without it) when it cannot be fetched.
 * @param {string} url
 * @returns {Promise<ArrayBuffer>}
 */
async function fetchSnapshot(url) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`the snapshot could not be fetched (HTTP ${resp.status})`);
  return resp.arrayBuffer();
}

async function boot() {
  bootProgress('pyodide', 0.02, 'Reading the site manifest…');
  const manifestUrl = new URL('../manifest.json', import.meta.url);
  const resp = await fetch(manifestUrl);
  if (!resp.ok) throw new Error(`Could not read manifest.json (HTTP ${resp.status})`);
  const manifest = await resp.json();
  const indexURL = new URL(manifest.pyodide_index || 'pyodide/', manifestUrl).href;

  const packages = /** @type {string[]} */ (manifest.packages || []);
  const numpy = packages.filter((u) => /(^|\/)numpy-[^/]*\.whl$/.test(u)).map((u) => new URL(u, manifestUrl).href);
  if (!manifest.arcstar_wheel) throw new Error('manifest.json names no arcstar wheel');
  // Everything is fetched at once: the arcstar wheel here, numpy by Pyodide while its runtime
  // boots (loadPyodide's `packages`), the runtime itself.
  const wheelUrl = new URL(manifest.arcstar_wheel, manifestUrl).href;
  const wheel = fetchBytes(wheelUrl, manifest.arcstar_wheel);
  wheel.catch(() => {}); // awaited below; not an unhandled rejection meanwhile

  bootProgress('pyodide', 0.05, 'Loading the Python runtime (Pyodide) and numpy…');
  // loadPyodide gives no progress of its own: creep towards the stage's end meanwhile.
  let p = 0.05;
  const ticker = setInterval(() => {
    p += (0.8 - p) * 0.06;
    bootProgress('pyodide', p, 'Loading the Python runtime (Pyodide) and numpy…');
  }, 150);
  // A memory snapshot of the booted interpreter (made at build time, see build.py) saves about
  // a second; if it cannot be fetched or used, Python boots the ordinary way.
  const snapshot = manifest.snapshot ? fetchSnapshot(new URL(manifest.snapshot, manifestUrl).href) : null;
  let fromSnapshot = false;
  try {
    const mod = await import(new URL('pyodide.mjs', indexURL).href);
    /** @param {Promise<ArrayBuffer> | null} snap */
    const load = (snap) =>
      mod.loadPyodide({
        indexURL,
        packages: numpy.length ? numpy : ['numpy'],
        stdout: (/** @type {string} */ s) => console.log('[python]', s),
        stderr: (/** @type {string} */ s) => console.warn('[python]', s),
        ...(snap ? { _loadSnapshot: snap } : {}),
      });
    try {
      worker.pyodide = await load(snapshot);
      fromSnapshot = snapshot !== null;
    } catch (e) {
      if (!snapshot) throw e;
      console.warn('[worker] the Pyodide snapshot could not be used; booting Python without it:', readable(e));
      worker.pyodide = await load(null);
    }
  } finally {
    clearInterval(ticker);
  }

  bootProgress('arcstar', 0.86, 'Loading arcstar…');
  const sitePackages = worker.pyodide.runPython('import sysconfig; sysconfig.get_paths()["purelib"]');
  worker.pyodide.unpackArchive(await wheel, 'wheel', { extractDir: sitePackages });
  const mod = worker.pyodide.pyimport('arcstar.service');
  worker.service = mod.Service();
  mod.destroy?.();
  const versions = worker.pyodide.runPython(
    'import sys, numpy, arcstar\n' +
      '"arcstar %s, Python %d.%d.%d, numpy %s" % (getattr(arcstar, "__version__", "?"), *sys.version_info[:3], numpy.__version__)',
  );
  const seconds = (performance.now() / 1000).toFixed(1);
  post({ type: 'boot', stage: 'ready', progress: 1, message: `Engine ready in ${seconds} s (${versions})`, from_snapshot: fromSnapshot });
}

const booted = boot().catch((e) => {
  const message = `The engine failed to load: ${readable(e)}`;
  bootProgress('failed', 0, message);
  throw e;
});
booted.catch(() => {});

// ---------------------------------------------------------------- errors

/** @typedef {import('./engine.js').ErrorKind} ErrorKind */
/** @typedef {import('./engine.js').ErrorMessage} ErrorMessage */

const BAD_INPUT = /** @type {ErrorKind} */ ('bad_input');
const INTERNAL = /** @type {ErrorKind} */ ('internal');
/** The deepest a message may nest (the service refuses deeper JSON, too). */
const MAX_DEPTH = 32;

/** A request the worker refuses before the service sees it, naming the bad field. */
class BadRequest extends Error {
  /** @param {string} message @param {string} [field] */
  constructor(message, field = '') {
    super(message);
    this.field = field;
  }
}

/**
 * A one-line, readable message for an error (a Python exception's message is
 * its whole traceback: keep the last line, e.g. "ValueError: ...").
 * @param {any} e
 */
function readable(e) {
  const text = (e && typeof e === 'object' && 'message' in e ? String(e.message) : String(e)).trim();
  if (e && typeof e.type === 'string') {
    const lines = text.split('\n');
    return lines[lines.length - 1].trim();
  }
  return text;
}

/**
 * An error answer.
 * @param {any} id
 * @param {ErrorKind} kind
 * @param {string} field
 * @param {string} message
 * @returns {ErrorMessage}
 */
function errorAnswer(id, kind, field, message) {
  return { type: 'error', id: normId(id), kind, field, message };
}

/**
 * Post an error answer: bad input for a BadRequest, internal for anything else.
 * @param {any} id
 * @param {any} e  a BadRequest, another error, or a message
 */
function postError(id, e) {
  if (e instanceof BadRequest) return post(errorAnswer(id, BAD_INPUT, e.field || '', e.message));
  post(errorAnswer(id, INTERNAL, '', readable(e)));
}

/**
 * Relay an error answer of the service (its kind and field kept), or make one
 * of an unexpected answer.
 * @param {any} id
 * @param {any} resp
 * @param {string} what  the request, for the message
 */
function postServiceError(id, resp, what) {
  if (resp && resp.type === 'error') {
    const kind = resp.kind === BAD_INPUT ? BAD_INPUT : INTERNAL;
    const field = typeof resp.field === 'string' ? resp.field : '';
    const answer = errorAnswer(id, kind, field, String(resp.message || `The ${what} request failed`));
    // where the Python panel's code failed (function, line, reason), as the service said it
    if (resp.code_error && typeof resp.code_error === 'object') return post({ ...answer, code_error: resp.code_error });
    return post(answer);
  }
  post(errorAnswer(id, INTERNAL, '', `Unexpected answer to ${what}: ${JSON.stringify(resp).slice(0, 200)}`));
}

/** An id as it goes back to the page (only numbers and strings survive). */
function normId(/** @type {any} */ id) {
  return typeof id === 'number' || typeof id === 'string' ? id : null;
}

// ---------------------------------------------------------------- service calls

/**
 * Call the service with one message. Returns its parsed JSON answer; a message
 * JSON cannot carry is refused as bad input, and a Python exception or an
 * unreadable answer becomes an internal error answer.
 *
 * @param {object} message
 * @param {Uint8Array | null} [cells]
 * @returns {any}
 */
function call(message, cells = null) {
  const id = normId(/** @type {any} */ (message).id);
  /** @type {any} */
  let pyCells = null;
  let json;
  try {
    json = toJson(message);
  } catch (e) {
    if (e instanceof BadRequest) return errorAnswer(id, BAD_INPUT, e.field || '', e.message);
    return errorAnswer(id, INTERNAL, '', readable(e));
  }
  try {
    if (cells) pyCells = worker.pyodide.toPy(cells);
    const out = worker.service.handle(json, pyCells);
    const resp = JSON.parse(String(out));
    if (!resp || typeof resp !== 'object') return errorAnswer(id, INTERNAL, '', 'The service gave an empty answer');
    return resp;
  } catch (e) {
    if (isFatal(e)) crash(e);
    return errorAnswer(id, INTERNAL, '', readable(e));
  } finally {
    if (pyCells && typeof pyCells.destroy === 'function') pyCells.destroy();
  }
}

/**
 * Whether an error broke the Python runtime itself (Pyodide marks such errors; every later
 * call would fail with "Pyodide already fatally failed").
 * @param {any} e
 */
function isFatal(e) {
  return Boolean(e && typeof e === 'object' && e.pyodide_fatal_error);
}

/**
 * Tell the page the runtime is broken and stop: the page starts a new worker and sends its
 * map again. Nothing the user made lives only here.
 * @param {any} e
 */
function crash(e) {
  post({ type: 'crashed', message: `the Python runtime failed: ${readable(e)}` });
  ctx.close();
}

/**
 * The dotted path of the first number JSON cannot carry (NaN, Infinity) in a
 * value, or null; throws BadRequest for a value nested deeper than MAX_DEPTH.
 * @param {any} value
 * @param {string} path
 * @param {number} depth
 * @returns {string | null}
 */
function nonFinitePath(value, path, depth) {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (!value || typeof value !== 'object' || ArrayBuffer.isView(value)) return null;
  if (depth >= MAX_DEPTH) throw new BadRequest(`The message nests deeper than ${MAX_DEPTH} levels`);
  for (const [key, item] of Object.entries(value)) {
    const found = nonFinitePath(item, path ? `${path}.${key}` : key, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/**
 * JSON for the service, refusing numbers JSON cannot carry (NaN, Infinity).
 * @param {object} message
 */
function toJson(message) {
  const where = nonFinitePath(message, '', 0);
  if (where !== null) {
    throw new BadRequest(
      `"${where}" is not a finite number: numbers must be finite (use null for an impassable terrain cost)`,
      where,
    );
  }
  return JSON.stringify(message);
}

/**
 * A binary part the service holds for the last answer, copied out of Python
 * once so it can be transferred to the page.
 * @param {string} name
 * @returns {Uint8Array | null}
 */
function takeBuffer(name) {
  const buf = worker.service.take_buffer(name);
  if (!buf) return null;
  try {
    return buf.toJs();
  } finally {
    buf.destroy();
  }
}

/** Typed-array constructors for the dtypes the protocol names. */
const TYPED = { int32: Int32Array, float64: Float64Array, uint8: Uint8Array };

/**
 * Whether a value is a binary part's descriptor {name, dtype, length}.
 * @param {any} v
 */
function isBufferDescriptor(v) {
  return (
    v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 3 &&
    typeof v.name === 'string' && Object.hasOwn(TYPED, v.dtype) && Number.isInteger(v.length)
  );
}

/**
 * Swap every binary descriptor in an answer's objects for its typed array
 * (null when its bytes are missing or the wrong size), collecting what to
 * transfer. Arrays are not searched: binary parts sit in objects only.
 * @param {any} value
 * @param {ArrayBuffer[]} transfer
 * @param {number} [depth]
 * @returns {any}
 */
function attachBuffers(value, transfer, depth = 0) {
  if (!value || typeof value !== 'object' || Array.isArray(value) || depth > 8) return value;
  if (isBufferDescriptor(value)) {
    const Typed = TYPED[/** @type {keyof typeof TYPED} */ (value.dtype)];
    const bytes = takeBuffer(value.name);
    if (!bytes || bytes.byteLength !== value.length * Typed.BYTES_PER_ELEMENT) return null;
    const typed = new Typed(/** @type {ArrayBuffer} */ (bytes.buffer), bytes.byteOffset, value.length);
    transfer.push(/** @type {ArrayBuffer} */ (typed.buffer));
    return typed;
  }
  for (const key of Object.keys(value)) value[key] = attachBuffers(value[key], transfer, depth + 1);
  return value;
}

// ---------------------------------------------------------------- searches


/** @param {Job} j */
function cancelJob(j) {
  j.cancelled = true;
  if (worker.jobs.get(j.id) === j) worker.jobs.delete(j.id);
  call({ type: 'cancel', id: j.id });
  post({ type: 'cancelled', id: j.id });
}

/** @param {Job} j  the job is over: it leaves the running set */
function endJob(j) {
  if (worker.jobs.get(j.id) === j) worker.jobs.delete(j.id);
}

/**
 * A message that carries a map (plan, world_start) as the service takes it: map.cells is taken
 * out (kept as the worker's map cache) and sent beside the JSON only when the service does not
 * hold that version already.
 * @param {any} msg
 * @returns {{forService: any, send: Uint8Array | null}}
 */
function withMap(msg) {
  const map = msg.map;
  if (!map || typeof map !== 'object') {
    throw new BadRequest(`A ${msg.type} message needs a "map": {width, height, version, cells}`, 'map');
  }
  const { cells, ...mapInfo } = map;
  /** @type {Uint8Array | null} */
  let send = null;
  if (cells !== undefined && cells !== null) {
    if (!(cells instanceof Uint8Array)) {
      throw new BadRequest(
        `map.cells must be a Uint8Array of terrain codes (got ${cells?.constructor?.name ?? typeof cells})`,
        'map.cells',
      );
    }
    if (!Number.isInteger(map.width) || !Number.isInteger(map.height) || cells.length !== map.width * map.height) {
      throw new BadRequest(
        `map.cells has ${cells.length} values but the map is ${map.width}x${map.height} (width*height values are needed)`,
        'map.cells',
      );
    }
    worker.mapCache = { version: map.version, width: map.width, height: map.height, cells };
  }
  if (worker.serviceVersion !== map.version || cells) {
    if (worker.mapCache && worker.mapCache.version === map.version) send = worker.mapCache.cells;
  }
  return { forService: { ...msg, map: mapInfo }, send };
}

/**
 * Start a search. A plan cancels the searches running, unless it says `alongside: true`: then
 * it runs beside them. The scheduler (`pump`) gives every running search slices in turn, after
 * the world's ticks: a quick search finishes in a slice or two while a slow one (a directional
 * search) goes on in the background with what each frame leaves: Pinter's two matrices, fast
 * searches flowing while a slow one is timesliced.
 * @param {any} msg
 */
function startPlan(msg) {
  const id = normId(msg.id);
  if (id === null) throw new BadRequest('A plan message needs an "id" (a number or a string)', 'id');
  if (msg.alongside !== undefined && typeof msg.alongside !== 'boolean') {
    throw new BadRequest(`"alongside" must be true or false (got ${JSON.stringify(msg.alongside)?.slice(0, 40)})`, 'alongside');
  }
  for (const running of [...worker.jobs.values()]) {
    if (!msg.alongside || running.id === id) cancelJob(running);
  }
  const { forService, send } = withMap(msg);
  delete forService.alongside; // the worker's to honour, not the service's
  const resp = call(forService, send);
  if (resp.type !== 'started') {
    worker.serviceVersion = null;
    return postServiceError(id, resp, 'plan');
  }
  worker.serviceVersion = msg.map.version;
  worker.jobs.set(id, { id, cancelled: false, slices: 0, lastProgress: 0 });
  post({ type: 'started', id });
  wake();
}

/**
 * Give a search one slice; it leaves the running set when it ends.
 * @param {Job} j
 * @param {number} budget  ms
 */
function stepJob(j, budget) {
  const resp = call({ type: 'step', id: j.id, budget_ms: budget });
  j.slices++;
  if (j.cancelled) return;
  if (resp.type === 'progress') {
    const now = performance.now();
    if (now - j.lastProgress >= PROGRESS_EVERY_MS) {
      j.lastProgress = now;
      post({ type: 'progress', id: j.id, expanded: resp.expanded, open: resp.open });
    }
  } else if (resp.type === 'result') {
    endJob(j);
    /** @type {ArrayBuffer[]} */
    const transfer = [];
    const r = attachBuffers(resp.result || {}, transfer);
    const trace = r.trace && Object.values(r.trace).every((a) => a) ? r.trace : null;
    post({ type: 'result', id: j.id, result: { ...r, explored: r.explored || null, trace } }, transfer);
  } else {
    endJob(j);
    worker.serviceVersion = null;
    postServiceError(j.id, resp, 'step');
  }
}

// ---------------------------------------------------------------- the scheduler

/** Make sure the scheduler runs (and stops waiting, if it waits for the world's next tick). */
function wake() {
  if (worker.wakeNow) worker.wakeNow();
  if (worker.pumping) return;
  worker.pumping = true;
  pump()
    .catch((e) => {
      if (isFatal(e)) crash(e);
      else postError(null, e);
    })
    .finally(() => {
      worker.pumping = false;
    });
}

/**
 * Wait up to `ms` for the world's next tick; `wake()` ends the wait early (a new search).
 * @param {number} ms
 */
function waitForTick(ms) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      worker.wakeNow = null;
      resolve(undefined);
    };
    const timer = setTimeout(done, ms);
    worker.wakeNow = done;
  });
}

/**
 * The scheduler: while there is work, each frame runs the world's due ticks first, then a slice
 * of each fast search, then the slow searches share what is left of the frame.
 */
async function pump() {
  for (;;) {
    const frameStart = performance.now();
    const world = worker.world;
    if (world.running) tickWorld(frameStart);
    const jobs = [...worker.jobs.values()].filter((j) => !j.cancelled);
    if (!jobs.length && !world.running) return;
    const fast = jobs.filter((j) => j.slices < FAST_SLICES);
    const slow = jobs.filter((j) => j.slices >= FAST_SLICES);
    for (const j of fast) if (!j.cancelled) stepJob(j, SLICE_MS);
    for (let k = 0; k < slow.length; k++) {
      const j = slow[k];
      if (j.cancelled) continue;
      const left = FRAME_MS - (performance.now() - frameStart);
      stepJob(j, Math.min(SLICE_MS, Math.max(MIN_SLICE_MS, left / (slow.length - k))));
    }
    if (worker.jobs.size === 0 && world.running) {
      // Only the world: sleep until its next tick is due.
      const ms = ((world.dt - world.owed) / world.speed) * 1000;
      await waitForTick(Math.max(1, ms));
    } else {
      await yieldToEventLoop();
    }
  }
}

/**
 * Run the world's ticks due by now (at most WORLD_BUDGET_MS of them) and post its state.
 * @param {number} now
 */
function tickWorld(now) {
  const world = worker.world;
  world.owed += ((now - world.last) / 1000) * world.speed;
  world.last = now;
  if (world.owed > MAX_OWED_S) {
    world.lag += world.owed - MAX_OWED_S;
    world.owed = MAX_OWED_S;
  }
  const due = Math.min(200, Math.floor(world.owed / world.dt + 1e-9));
  if (due < 1) return;
  const resp = call({ type: 'world_step', id: 'run', ticks: due, budget_ms: WORLD_BUDGET_MS, ...world.view });
  if (resp.type !== 'world_state') {
    world.running = false;
    postServiceError(null, resp, 'world_step');
    return;
  }
  world.owed -= resp.stepped * world.dt;
  postWorld(null, resp);
}

/**
 * Post a world_state answer with its binary parts and the play state.
 * @param {any} id
 * @param {any} resp
 */
function postWorld(id, resp) {
  /** @type {ArrayBuffer[]} */
  const transfer = [];
  const answer = attachBuffers(resp, transfer);
  const w = worker.world;
  post({ ...answer, id, running: w.running, speed: w.speed, lag: Math.round(w.lag * 1000) / 1000 }, transfer);
}

/**
 * world_start: a new world on the page's map (sent as a plan's is); it starts paused.
 * @param {any} msg
 */
function startWorld(msg) {
  const id = normId(msg.id);
  if (id === null) throw new BadRequest('A world_start message needs an "id" (a number or a string)', 'id');
  const { forService, send } = withMap(msg);
  const resp = call(forService, send);
  if (resp.type !== 'world_state') {
    worker.serviceVersion = null;
    return postServiceError(id, resp, 'world_start');
  }
  worker.serviceVersion = msg.map.version;
  Object.assign(worker.world, { exists: true, running: false, dt: resp.dt, owed: 0, lag: 0 });
  postWorld(id, resp);
}

/**
 * write_map: the page's map (sent as a plan's) written as a file by the core; answered at once.
 * @param {any} msg
 */
function writeMap(msg) {
  const id = normId(msg.id);
  if (id === null) throw new BadRequest('A write_map message needs an "id" (a number or a string)', 'id');
  const { forService, send } = withMap(msg);
  const resp = call(forService, send);
  if (resp.type === 'error') {
    worker.serviceVersion = null;
    return postServiceError(id, resp, 'write_map');
  }
  worker.serviceVersion = msg.map.version;
  post({ ...resp, id });
}

/**
 * world_run: play or pause the world, at a speed, telling what its states should carry.
 * @param {any} msg
 */
function runWorld(msg) {
  const id = normId(msg.id);
  if (id === null) throw new BadRequest('A world_run message needs an "id" (a number or a string)', 'id');
  for (const key of Object.keys(msg)) {
    if (!['type', 'id', 'running', 'speed', 'claimed', 'paths', 'team'].includes(key)) {
      throw new BadRequest(`Unknown field "${key.slice(0, 40)}" in world_run (expected running, speed, claimed, paths, team)`, key.slice(0, 40));
    }
  }
  if (typeof msg.running !== 'boolean') throw new BadRequest('"running" must be true or false', 'running');
  const speed = msg.speed ?? worker.world.speed;
  if (typeof speed !== 'number' || !(speed >= SPEED_RANGE[0] && speed <= SPEED_RANGE[1])) {
    throw new BadRequest(`"speed" must be a number from ${SPEED_RANGE[0]} to ${SPEED_RANGE[1]} (got ${JSON.stringify(speed)?.slice(0, 40)})`, 'speed');
  }
  for (const key of ['claimed', 'paths']) {
    if (msg[key] !== undefined && typeof msg[key] !== 'boolean') throw new BadRequest(`"${key}" must be true or false`, key);
  }
  if (msg.team !== undefined && msg.team !== null && (typeof msg.team !== 'string' || msg.team.length > 64)) {
    throw new BadRequest('"team" must be a string of at most 64 characters, or null', 'team');
  }
  if (!worker.world.exists) throw new BadRequest('No world is running: send world_start first', 'type');
  const w = worker.world;
  const view = { claimed: msg.claimed ?? w.view.claimed, paths: msg.paths ?? w.view.paths, team: msg.team === undefined ? w.view.team : msg.team };
  const resp = call({ type: 'world_step', id, ticks: 0, ...view });
  if (resp.type !== 'world_state') return postServiceError(id, resp, 'world_run');
  if (msg.running && !w.running) {
    w.owed = 0;
    w.last = performance.now();
  }
  Object.assign(w, { running: msg.running, speed, view });
  postWorld(id, resp);
  if (w.running) wake();
}

/**
 * Answer a request the service handles at once (info, load_map, load_scen, describe, generate, and the
 * world's requests but world_start and world_run).
 * @param {any} msg
 */
function requestMessage(msg) {
  const id = normId(msg.id);
  if (id === null) throw new BadRequest(`A ${msg.type} message needs an "id" (a number or a string)`, 'id');
  if ((msg.type === 'load_map' || msg.type === 'load_scen') && typeof msg.text === 'string' && msg.text.length > MAX_TEXT) {
    throw new BadRequest(
      `The file is too large to read (${(msg.text.length / 1048576).toFixed(0)} MB; at most ${MAX_TEXT / 1048576} MB)`,
      'text',
    );
  }
  const resp = call(msg);
  if (resp.type === 'error') return postServiceError(id, resp, msg.type);
  if (resp.type === 'world_state') return postWorld(id, resp);
  /** @type {ArrayBuffer[]} */
  const transfer = [];
  const answer = attachBuffers(resp, transfer);
  if ((msg.type === 'load_map' || msg.type === 'generate') && !(answer.cells instanceof Uint8Array && answer.cells.length === answer.width * answer.height)) {
    return postError(id, new Error('The map was read but its tiles did not come back'));
  }
  post({ ...answer, id }, transfer);
}

/** @param {any} msg */
function cancelMessage(msg) {
  const id = normId(msg.id);
  const chosen = id === null ? [...worker.jobs.values()] : [worker.jobs.get(id)].filter((j) => j !== undefined);
  if (chosen.length) chosen.forEach(cancelJob);
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
      throw new BadRequest(`A message must be an object with a "type" (got ${JSON.stringify(msg)?.slice(0, 80)})`);
    }
    switch (msg.type) {
      case 'plan':
        return startPlan(msg);
      case 'cancel':
        return cancelMessage(msg);
      case 'info':
      case 'load_map':
      case 'load_scen':
      case 'describe':
      case 'world_info':
      case 'world_preset':
      case 'world_add':
      case 'world_remove':
      case 'world_order':
      case 'world_step':
      case 'generate':
      case 'check_code':
        return requestMessage(msg);
      case 'world_start':
        return startWorld(msg);
      case 'world_run':
        return runWorld(msg);
      case 'write_map':
        return writeMap(msg);
      default:
        throw new BadRequest(
          `Unknown message type ${JSON.stringify(msg.type)}: expected "plan", "cancel", "info", "load_map", ` +
            '"load_scen", "describe", "generate", "write_map" or a world_* message',
          'type',
        );
    }
  } catch (err) {
    if (err instanceof BadRequest) return postError(msg && msg.id, err);
    if (isFatal(err)) return crash(err);
    postError(msg && msg.id, `The worker could not handle the message: ${readable(err)}`);
  }
};

ctx.addEventListener('unhandledrejection', (/** @type {PromiseRejectionEvent} */ e) => {
  e.preventDefault();
  console.warn('[worker] unhandled rejection', e.reason);
});
