// Booting Pyodide under Node.js for the bench's workers: the runtime from a folder, packages
// loaded with their failures collected (loadPackage never rejects), host folders mounted.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Pyodide from `config.pyodide_dir`, wheels cached in `config.package_cache_dir`, with the
 * packages `names` loaded; Python's output goes to stderr (stdout is the worker's channel).
 * @param {{pyodide_dir: string, package_cache_dir: string}} config
 * @param {string[]} names
 */
export async function bootPyodide(config, names) {
  const { loadPyodide } = await import(pathToFileURL(resolve(config.pyodide_dir, 'pyodide.mjs')).href);
  const pyodide = await loadPyodide({
    indexURL: resolve(config.pyodide_dir) + '/',
    packageCacheDir: resolve(config.package_cache_dir) + '/',
    stdout: (s) => process.stderr.write(`[py] ${s}\n`),
    stderr: (s) => process.stderr.write(`${s}\n`),
  });
  const errors = [];
  await pyodide.loadPackage(names, { messageCallback: () => {}, errorCallback: (m) => errors.push(String(m)) });
  if (errors.length) throw new Error(`could not load ${names.join(', ')}: ${errors.join('; ')}`);
  return pyodide;
}

/**
 * Mount a host folder into Pyodide's file system with NODEFS.
 * @param {any} pyodide
 * @param {string} hostDir
 * @param {string} where
 */
export function mount(pyodide, hostDir, where) {
  pyodide.FS.mkdirTree(where);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: resolve(hostDir) }, where);
}
