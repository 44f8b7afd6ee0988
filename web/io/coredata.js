// @ts-check
/**
 * What the core tells the page before Pyodide has loaded: the build writes js/core-data.json from
 * pycore (build.py's core_data: the terrain table, the codes of ground and wall, and the built-in
 * maps run-length encoded), so the map is drawn and editable from the first paint.
 *
 * @module io/coredata
 */

/** @typedef {import('../app.js').CoreData} CoreData */
/** @typedef {import('../app.js').LabMap} LabMap */

/** Fetch the core data the build wrote beside the modules. @returns {Promise<CoreData>} */
export async function loadCoreData() {
  const url = new URL('../core-data.json', import.meta.url);
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`could not fetch the lab's core data (HTTP ${resp.status})`);
  return resp.json();
}

/**
 * A built-in map, with cells of its own (the page edits them in place).
 * @param {CoreData} core
 * @param {string} name  example, lester, empty or maze
 * @returns {LabMap}
 */
export function builtInMap(core, name) {
  const entry = core.maps[name];
  if (!entry) throw new Error(`there is no built-in map named ${name}`);
  const cells = new Uint8Array(entry.width * entry.height);
  let at = 0;
  for (let i = 0; i < entry.runs.length; i += 2) {
    cells.fill(entry.runs[i], at, at + entry.runs[i + 1]);
    at += entry.runs[i + 1];
  }
  return { width: entry.width, height: entry.height, cells, start: entry.start, goal: entry.goal };
}
