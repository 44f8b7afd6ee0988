// Run bench modules (bench_geometry, bench_collision, bench_turning) inside real Pyodide under
// Node.js, for their Pyodide column:  node bench/pyodide_modules.mjs [MODULE ...]
// Loads Pyodide and numpy the way tests/pyodide/run_in_pyodide.mjs does (wheels verified by
// build.py), mounts pycore/ and bench/ (and the shared Moving AI maps when they are there), and
// prints one line `ARCSTAR_BENCH {json}` with each module's rows.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..");
const MODULES = process.argv.slice(2).length ? process.argv.slice(2) : ["bench_geometry", "bench_collision", "bench_turning"];
const OPTIONS = { bench_geometry: { calls: 20000, repeats: 3 }, bench_collision: { repeats: 3 }, bench_turning: { repeats: 2, calls: 1 } };

const deps = JSON.parse(execFileSync(process.env.PYTHON || "python3", [path.join(REPO, "build.py"), "pyodide-test-deps"],
  { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
const { loadPyodide } = await import(pathToFileURL(path.join(REPO, "node_modules", "pyodide", "pyodide.mjs")).href);
const pyodide = await loadPyodide({ packageCacheDir: deps.package_cache_dir });
const errors = [];
await pyodide.loadPackage(["numpy"], { messageCallback: () => {}, errorCallback: (m) => errors.push(m) });
if (errors.length) throw new Error(`loading numpy failed:\n${errors.join("\n")}`);

function mount(host, target) {
  if (!fs.existsSync(host)) return false;
  pyodide.FS.mkdirTree(target);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: host }, target);
  return true;
}
mount(path.join(REPO, "pycore"), "/repo/pycore");
mount(path.join(REPO, "bench"), "/repo/bench");
const shared = process.env.ARCSTAR_BENCHMARKS || path.join(REPO, "..", "shared", "benchmarks", "movingai");
const hasMaps = mount(shared, "/shared/benchmarks/movingai");

pyodide.globals.set("_modules", JSON.stringify(MODULES));
pyodide.globals.set("_options", JSON.stringify(OPTIONS));
pyodide.globals.set("_maps", hasMaps ? "/shared/benchmarks/movingai" : "");
const out = await pyodide.runPythonAsync(`
import importlib, json, os, sys
sys.dont_write_bytecode = True
sys.path[:0] = ["/repo/pycore", "/repo"]
if _maps:
    os.environ["ARCSTAR_BENCHMARKS"] = _maps
result = {"python": sys.version.split()[0], "modules": {}}
for name in json.loads(_modules):
    mod = importlib.import_module("bench." + name)
    result["modules"][name] = mod.run(None, **json.loads(_options).get(name, {}))
json.dumps(result, default=str)
`);
console.log(`ARCSTAR_BENCH ${out}`);
