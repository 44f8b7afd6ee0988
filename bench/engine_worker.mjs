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
import { createInterface } from 'node:readline';
import { bootPyodide, mount } from './pyodide_boot.mjs';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const t0 = performance.now();
const log = (msg) => process.stderr.write(`${msg}\n`);

const pyodide = await bootPyodide(config, ['numpy']);

mount(pyodide, config.pycore, '/core/pycore');
mount(pyodide, config.bench, '/core/bench');
mount(pyodide, config.data_dir, '/core/data');
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
