// One core's side of engine_compare inside Pyodide under Node.js: bench/engine_bench.py as a worker.
//
//   node bench/engine_worker.mjs CONFIG.json
//
// CONFIG: {"pyodide_dir": folder of pyodide.mjs, "package_cache_dir": folder holding the numpy
//          wheel, "pycore": the folder holding the arcstar package to measure, "bench": the repo's
//          bench/, "data_dir": the Moving AI folder}
//
// pycore, bench and the maps are mounted with NODEFS. Then each line on stdin is a request for
// engine_bench.handle_json and each reply a line `REPLY {json}` on stdout, until stdin closes.
// Python's own output and the progress go to stderr.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const t0 = performance.now();
const log = (msg) => process.stderr.write(`${msg}\n`);

const { loadPyodide } = await import(pathToFileURL(resolve(config.pyodide_dir, 'pyodide.mjs')).href);
const pyodide = await loadPyodide({
  indexURL: resolve(config.pyodide_dir) + '/',
  packageCacheDir: resolve(config.package_cache_dir) + '/',
  stdout: (s) => process.stderr.write(`[py] ${s}\n`),
  stderr: (s) => process.stderr.write(`${s}\n`),
});
const errors = [];
// loadPackage never rejects: a missing wheel only calls errorCallback, so collect and throw.
await pyodide.loadPackage(['numpy'], { messageCallback: () => {}, errorCallback: (m) => errors.push(String(m)) });
if (errors.length) throw new Error(`could not load numpy: ${errors.join('; ')}`);

function mount(hostDir, where) {
  pyodide.FS.mkdirTree(where);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: resolve(hostDir) }, where);
}
mount(config.pycore, '/core/pycore');
mount(config.bench, '/core/bench');
mount(config.data_dir, '/core/data');
pyodide.runPython(`
import sys
sys.dont_write_bytecode = True
sys.path[:0] = ["/core/pycore", "/core/bench"]
`);
const worker = pyodide.pyimport('engine_bench');
log(`pyodide ${pyodide.version} ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  process.stdout.write(`REPLY ${worker.handle_json(line)}\n`);
}
process.exit(0);
