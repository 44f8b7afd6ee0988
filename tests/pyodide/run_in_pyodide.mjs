// Run the core's unit tests inside real Pyodide (CPython 3.12 compiled to wasm) under Node.js.
//
//   node tests/pyodide/run_in_pyodide.mjs [--package-cache-dir DIR --wheel W ...] [-- PYTEST_ARGS]
//
// Pyodide comes from node_modules/pyodide (npm ci). numpy, packaging and micropip load offline
// from DIR, the folder of wheels build.py verified against pyodide-lock.json; pytest and its
// pure-Python dependencies load from the --wheel files. Without those options the script asks
// `python3 build.py pyodide-test-deps` for them. pycore/ and tests/unit/ are mounted live (not
// copied) with NODEFS; pytest runs with -m "not no_pyodide". The exit code is pytest's. The last line
// printed is `ARCSTAR_PYODIDE_RESULT {json}` with the interpreter's version and the counts.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "..", "..");
const MOUNT = "/repo"; // where the repo's pieces appear inside Pyodide's file system

function parseArgs(argv) {
  const options = { packageCacheDir: null, wheels: [], pytestArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      options.pytestArgs = argv.slice(i + 1);
      break;
    } else if (arg === "--package-cache-dir") {
      options.packageCacheDir = argv[++i];
    } else if (arg === "--wheel") {
      options.wheels.push(argv[++i]);
    } else {
      options.pytestArgs = argv.slice(i); // anything else goes to pytest
      break;
    }
  }
  if (!options.packageCacheDir) {
    // Ask build.py, which fetches (once, into its cache) and verifies what is needed.
    const python = process.env.PYTHON || "python3";
    const out = execFileSync(python, [path.join(REPO, "build.py"), "pyodide-test-deps"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    const deps = JSON.parse(out);
    options.packageCacheDir = deps.package_cache_dir;
    options.wheels = deps.wheels;
  }
  return options;
}

async function importPyodide() {
  const entry = path.join(REPO, "node_modules", "pyodide", "pyodide.mjs");
  if (!fs.existsSync(entry)) {
    throw new Error(`${entry} is missing: run \`npm ci\` (python build.py test does)`);
  }
  return import(pathToFileURL(entry).href);
}

/** loadPackage never rejects: collect its error messages and throw them instead. */
async function loadPackages(pyodide, names) {
  const errors = [];
  await pyodide.loadPackage(names, {
    messageCallback: () => {},
    errorCallback: (message) => errors.push(message),
  });
  if (errors.length) {
    throw new Error(`loading ${names.join(", ")} failed:\n${errors.join("\n")}`);
  }
}

/** Mount a host folder (live, via NODEFS) at the same relative place under MOUNT. */
function mountFolder(pyodide, relative) {
  const host = path.join(REPO, relative);
  if (!fs.existsSync(host)) throw new Error(`${host} does not exist`);
  const target = `${MOUNT}/${relative}`;
  pyodide.FS.mkdirTree(target);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: host }, target);
}

/** Copy one host file into Pyodide's memory file system (Node's Buffer wrapped, as Pyodide wants). */
function copyFile(pyodide, relative) {
  const host = path.join(REPO, relative);
  if (!fs.existsSync(host)) return;
  const data = fs.readFileSync(host);
  pyodide.FS.writeFile(`${MOUNT}/${relative}`, new Uint8Array(data.buffer, data.byteOffset, data.length));
}

const RUN_PYTEST = `
import json, os, platform, sys, time
sys.dont_write_bytecode = True        # never write cpython-312 .pyc files into the repo
sys.path.insert(0, "${MOUNT}/pycore")
os.chdir("${MOUNT}")

import pytest

class _Tally:
    """Counts what pytest collected and how each test ended; sets a Pyodide hypothesis profile."""
    def __init__(self):
        self.collected = 0
        self.outcomes = {}
    def pytest_configure(self, config):
        try:
            from hypothesis import settings
        except ImportError:
            return
        # wasm is slower than CPython and its timing noisier: no per-example deadline here.
        # Built on the active profile, so one a conftest loaded still holds.
        settings.register_profile("pyodide", parent=settings.default, deadline=None)
        settings.load_profile("pyodide")
    def pytest_collection_finish(self, session):
        self.collected = len(session.items)
    def pytest_terminal_summary(self, terminalreporter):
        self.outcomes = {k: len(v) for k, v in terminalreporter.stats.items() if k}

_tally = _Tally()
_started = time.perf_counter()
_extra = json.loads(_pytest_args)
_paths = [] if any(a.startswith("tests/") for a in _extra) else ["tests/unit"]
# --capture=sys: pytest's default fd capture needs real file descriptors, which wasm lacks.
_args = ["-p", "no:cacheprovider", "--capture=sys", "-m", "not no_pyodide", *_paths, *_extra]
_code = int(pytest.main(_args, plugins=[_tally]))
_result = {
    "exit_code": _code,
    "version": sys.version,
    "version_info": list(sys.version_info[:3]),
    "platform": sys.platform,
    "machine": platform.machine(),
    "collected": _tally.collected,
    "outcomes": _tally.outcomes,
    "pytest_seconds": round(time.perf_counter() - _started, 2),
}
json.dumps(_result)
`;

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const seconds = () => Math.round(performance.now() - started) / 1000;

  const { loadPyodide } = await importPyodide();
  const pyodide = await loadPyodide({ packageCacheDir: options.packageCacheDir });
  const booted = seconds();
  // Copy each chunk: Pyodide may reuse the buffer it hands over.
  pyodide.setStdout({ write: (buf) => { process.stdout.write(Buffer.from(buf)); return buf.length; } });
  pyodide.setStderr({ write: (buf) => { process.stderr.write(Buffer.from(buf)); return buf.length; } });

  // numpy and packaging by name: found in packageCacheDir, so nothing is downloaded.
  await loadPackages(pyodide, ["numpy", "packaging"]);
  if (options.wheels.length) await loadPackages(pyodide, options.wheels);
  const loaded = seconds();

  mountFolder(pyodide, "pycore");
  mountFolder(pyodide, "tests/unit");
  copyFile(pyodide, "pytest.ini");
  copyFile(pyodide, "tests/conftest.py");
  copyFile(pyodide, "tests/__init__.py");

  pyodide.globals.set("_pytest_args", JSON.stringify(options.pytestArgs));
  const result = JSON.parse(await pyodide.runPythonAsync(RUN_PYTEST));
  result.boot_seconds = booted;
  result.packages_seconds = Math.round((loaded - booted) * 1000) / 1000;
  result.total_seconds = seconds();
  process.stdout.write(`ARCSTAR_PYODIDE_RESULT ${JSON.stringify(result)}\n`);
  return result.exit_code;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`run_in_pyodide: ${error.stack || error}`);
    process.exit(3); // pytest's "internal error" code: the run itself broke
  },
);
