// The bench page's Web Worker: Pyodide with numpy, arcstar (the working tree's pycore/, zipped
// by bench/sections_search.py), bench/search_bench.py and bench/compat.py. One request at a time:
//   {id, cmd: 'boot', pyodide: indexURL, numpy: [wheel URLs], methods: [labels] | null}
//   {id, cmd: 'load_map', name, n, slow_n, seed}   map files are fetched from movingai/
//   {id, cmd: 'warm_up', label, scenario}          the untimed first query on a map
//   {id, cmd: 'query', label, scenario, budget_ms}  one timed query in Python (cut at budget_ms)
// Reply: {id, ok: true, result} or {id, ok: false, error}.

let pyodide = null;
let api = null;

async function boot(msg) {
  const t0 = performance.now();
  const stages = {};
  const mod = await import(new URL('pyodide.mjs', msg.pyodide).href);
  pyodide = await mod.loadPyodide({ indexURL: msg.pyodide });
  stages.pyodide_ms = performance.now() - t0;
  const errors = [];
  // loadPackage never rejects: a 404 or a bad hash only calls errorCallback.
  await pyodide.loadPackage(msg.numpy.length ? msg.numpy : ['numpy'], {
    messageCallback: () => {},
    errorCallback: (m) => errors.push(String(m)),
  });
  if (errors.length) throw new Error(`could not load numpy: ${errors.join('; ')}`);
  stages.numpy_ms = performance.now() - t0 - stages.pyodide_ms;
  const zip = await fetchOk('py/arcstar-src.zip');
  pyodide.unpackArchive(await zip.arrayBuffer(), 'zip', { extractDir: '/bench/src' });
  for (const name of ['search_bench.py', 'compat.py']) {
    const src = await fetchOk(`py/${name}`);
    pyodide.FS.writeFile(`/bench/src/${name}`, await src.text());
  }
  pyodide.FS.mkdirTree('/bench/data/maps');
  pyodide.FS.mkdirTree('/bench/data/scen');
  pyodide.runPython("import sys\nsys.path.insert(0, '/bench/src')");
  api = pyodide.pyimport('search_bench');
  const setup = JSON.parse(api.worker_setup('/bench/data', JSON.stringify(msg.methods || null)));
  stages.total_ms = performance.now() - t0;
  return { ...setup, boot: stages };
}

async function fetchOk(url) {
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`${url}: HTTP ${resp.status}`);
  return resp;
}

let loaded = null;

async function loadMap(msg) {
  const [map, scen] = await Promise.all([
    fetchOk(`movingai/maps/${msg.name}.map`).then((r) => r.text()),
    fetchOk(`movingai/scen/${msg.name}.map.scen`).then((r) => r.text()),
  ]);
  if (loaded) {
    pyodide.FS.unlink(`/bench/data/maps/${loaded}.map`);
    pyodide.FS.unlink(`/bench/data/scen/${loaded}.map.scen`);
  }
  pyodide.FS.writeFile(`/bench/data/maps/${msg.name}.map`, map);
  pyodide.FS.writeFile(`/bench/data/scen/${msg.name}.map.scen`, scen);
  loaded = msg.name;
  return JSON.parse(api.worker_load_map(msg.name, msg.n, msg.slow_n, msg.seed));
}

self.onmessage = async (event) => {
  const msg = event.data;
  try {
    let result;
    if (msg.cmd === 'query') {
      result = JSON.parse(api.worker_query(msg.label, msg.scenario, msg.budget_ms ?? null));
    } else if (msg.cmd === 'warm_up') result = JSON.parse(api.worker_warm_up(msg.label, msg.scenario));
    else if (msg.cmd === 'load_map') result = await loadMap(msg);
    else if (msg.cmd === 'boot') result = await boot(msg);
    else throw new Error(`unknown command ${msg.cmd}`);
    self.postMessage({ id: msg.id, ok: true, result });
  } catch (e) {
    const text = String((e && e.message) || e).trim().split('\n');
    self.postMessage({ id: msg.id, ok: false, error: text[text.length - 1] });
  }
};
