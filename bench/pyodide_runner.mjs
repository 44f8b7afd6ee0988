// Runs a bench measurement module (bench/search_bench.py, or config.module) inside Pyodide under
// Node.js and prints its JSON result.
//
//   node bench/pyodide_runner.mjs CONFIG.json
//
// CONFIG: {"pyodide_dir": folder of pyodide.mjs (node_modules/pyodide),
//          "package_cache_dir": folder holding the numpy, packaging and micropip wheels,
//          "pycore": the repo's pycore/, "bench": the repo's bench/, "data_dir": Moving AI folder,
//          "wheels": [pure-Python wheels to install with micropip, e.g. pathfinding],
//          "module": the bench module to run (default "search_bench"),
//          "request": what its run_request takes (its data_dir is rewritten here)}
//
// Everything is offline: numpy comes from package_cache_dir, the sources are mounted with
// NODEFS, the wheels are copied into Pyodide's file system and installed from there.
// Progress goes to stderr; the result is the last line of stdout, prefixed "RESULT ".

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { bootPyodide, mount } from './pyodide_boot.mjs';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const t0 = performance.now();
const log = (msg) => process.stderr.write(`${msg}\n`);

const pyodide = await bootPyodide(config, ['numpy', 'micropip']);
log(`pyodide ${pyodide.version} with numpy ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

mount(pyodide, config.pycore, '/bench/pycore');
mount(pyodide, config.bench, '/bench/bench');
mount(pyodide, config.data_dir, '/bench/data');

pyodide.FS.mkdirTree('/bench/wheels');
const wheelPaths = [];
for (const wheel of config.wheels || []) {
  const dest = `/bench/wheels/${basename(wheel)}`;
  // Node's Buffer is not what Emscripten's FS wants: wrap its bytes in a Uint8Array.
  const buf = readFileSync(wheel);
  pyodide.FS.writeFile(dest, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
  wheelPaths.push(dest);
}
pyodide.globals.set('_wheel_paths', pyodide.toPy(wheelPaths));
await pyodide.runPythonAsync(`
import sys
sys.path[:0] = ["/bench/pycore", "/bench/bench"]
import micropip
for _w in _wheel_paths:
    await micropip.install("emfs:" + _w, deps=False)
`);

const request = { ...config.request, data_dir: '/bench/data' };
const bench = pyodide.pyimport(config.module || 'search_bench');
const out = bench.run_request_json(JSON.stringify(request));
log(`pyodide section finished in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
process.stdout.write(`RESULT ${out}\n`);
process.exit(0);
