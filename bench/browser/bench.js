// The bench page: PathFinding.js on this (main) thread, arcstar in a Web Worker, same scenarios.
// Driven by bench/sections_search.py through window.benchBoot(cfg) and window.benchMap(cfg).

const PF = /** @type {any} */ (window).PF;
const worker = new Worker(new URL('./bench_worker.js', import.meta.url), { type: 'module' });
const waiting = new Map();
let nextId = 1;
let variants = [];

worker.onmessage = (event) => {
  const { id, ok, result, error } = event.data;
  const w = waiting.get(id);
  waiting.delete(id);
  if (w) (ok ? w.resolve(result) : w.reject(new Error(error)));
};
worker.onerror = (event) => {
  for (const w of waiting.values()) w.reject(new Error(`worker error: ${event.message}`));
  waiting.clear();
};

function rpc(msg) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ ...msg, id });
  });
}

/** A Moving AI .map as PathFinding.js's matrix: 0 walkable ('.', 'G', 'S'), 1 blocked. */
function parseMap(text) {
  const lines = text.replace(/\r/g, '').split('\n');
  let i = 0;
  const header = {};
  while (lines[i].trim().toLowerCase() !== 'map') {
    const [k, v] = lines[i].trim().split(/\s+/);
    if (k) header[k.toLowerCase()] = v;
    i++;
  }
  const width = Number(header.width);
  const height = Number(header.height);
  const matrix = [];
  for (let y = 0; y < height; y++) {
    const row = lines[i + 1 + y];
    const out = new Array(width);
    for (let x = 0; x < width; x++) {
      const c = row[x];
      out[x] = c === '.' || c === 'G' || c === 'S' ? 0 : 1;
    }
    matrix.push(out);
  }
  return { width, height, matrix };
}

function finders() {
  const opts = { diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles, heuristic: PF.Heuristic.octile };
  return { astar: new PF.AStarFinder(opts), jps: new PF.JumpPointFinder(opts) };
}

/** One PathFinding.js query as a user must run it: clone the grid (findPath dirties it), search. */
function timePF(finder, base, s) {
  const t0 = performance.now();
  const grid = base.clone();
  const path = finder.findPath(s.start[0], s.start[1], s.goal[0], s.goal[1], grid);
  const ms = performance.now() - t0;
  let closed = 0;
  for (const row of grid.nodes) for (const node of row) if (node.closed) closed++;
  return { id: s.id, ms, expanded: closed, path };
}

/** Let V8 compile PathFinding.js's hot loops before anything is timed. */
function warmUpPF() {
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const n = 96;
  const matrix = [];
  for (let y = 0; y < n; y++) matrix.push(Array.from({ length: n }, () => (rand() < 0.2 ? 1 : 0)));
  const base = new PF.Grid(n, n, matrix);
  const f = finders();
  for (let k = 0; k < 40; k++) {
    const s = { id: -1, start: [Math.floor(rand() * n), Math.floor(rand() * n)], goal: [Math.floor(rand() * n), Math.floor(rand() * n)] };
    matrix[s.start[1]][s.start[0]] = 0;
    matrix[s.goal[1]][s.goal[0]] = 0;
    const g = new PF.Grid(n, n, matrix);
    timePF(f.astar, g, s);
    timePF(f.jps, g, s);
  }
  return base.width;
}

function timerResolution() {
  let best = Infinity;
  for (let k = 0; k < 50; k++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return Math.round(best * 1e4) / 1e4;
}

window.benchBoot = async (cfg) => {
  const t0 = performance.now();
  const setup = await rpc({
    cmd: 'boot',
    pyodide: new URL(cfg.pyodide, location.href).href,
    numpy: cfg.numpy.map((u) => new URL(u, location.href).href),
    methods: cfg.methods || null,
  });
  variants = setup.variants;
  warmUpPF();
  return { setup, isolated: self.crossOriginIsolated, boot_ms: performance.now() - t0,
           timer_resolution_ms: timerResolution(), user_agent: navigator.userAgent };
};

window.benchMap = async (cfg) => {
  const info = await rpc({ cmd: 'load_map', name: cfg.name, n: cfg.n, slow_n: cfg.slow_n, seed: cfg.seed });
  const text = await (await fetch(`movingai/maps/${cfg.name}.map`)).text();
  const { width, height, matrix } = parseMap(text);
  const tg = performance.now();
  const base = new PF.Grid(width, height, matrix);
  const pfGridMs = performance.now() - tg;
  const f = finders();
  const sample = info.sample;
  const slow = new Set(info.slow_ids);
  const setup = {};
  const errors = {};
  const stopped = {};
  const spent = {};
  const pf = { astar: [], jps: [] };
  const arcstar = {};
  const meta = {};
  for (const v of variants) {
    arcstar[v.label] = [];
    spent[v.label] = 0;
    meta[v.label] = { method: v.method, slow: v.slow };
  }
  if (sample.length) {
    const warm = sample[0];
    for (const key of Object.keys(pf)) setup[`pf_${key}`] = timePF(f[key], base, warm).ms;
    for (const v of variants) {
      try {
        setup[v.label] = (await rpc({ cmd: 'warm_up', label: v.label, scenario: warm.id })).ms;
      } catch (e) {
        errors[v.label] = String(e.message || e);
      }
    }
  }
  for (const s of sample) {
    for (const key of Object.keys(pf)) pf[key].push(timePF(f[key], base, s));
    for (const v of variants) {
      if (errors[v.label] || stopped[v.label] || (v.slow && !slow.has(s.id))) continue;
      const t0 = performance.now();
      try {
        const mine = cfg.budget_ms ? cfg.budget_ms * (v.budget_factor || 1) : null;
        const budget = mine ? Math.max(0, mine - spent[v.label]) : null;
        const rec = await rpc({ cmd: 'query', label: v.label, scenario: s.id, budget_ms: budget });
        rec.rt_ms = performance.now() - t0;
        spent[v.label] += rec.rt_ms;
        const used = `time budget of ${mine / 1000} s on this map used up`;
        if (rec.timed_out) {
          stopped[v.label] = `${used} (a query was cut after ${(rec.ms / 1000).toFixed(1)} s)`;
          continue;
        }
        rec.scenario = s.id;
        arcstar[v.label].push(rec);
        if (mine && spent[v.label] > mine) stopped[v.label] = used;
      } catch (e) {
        errors[v.label] = String(e.message || e);
      }
    }
  }
  return { sample, slow_ids: info.slow_ids, pf, arcstar, setup, errors, stopped, pf_grid_ms: pfGridMs, variants: meta };
};
