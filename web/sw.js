// @ts-check
/**
 * The lab's service worker: keeps the site (the page, its modules, Pyodide, numpy and the
 * arcstar wheel: tens of MB) in a cache of its own, so a second visit boots without the network
 * and the lab works offline.
 *
 * The build (build.py) copies this file to the site root (its scope is the whole site, wherever
 * the site is mounted: every URL here is relative to that scope) and writes the build's id into
 * BUILD below; manifest.json carries the same id and the list of files to keep. A new deploy
 * changes this file's bytes, so the browser installs the new worker, which fills a new cache
 * (`arcstar-<build>`), takes over and deletes the old caches.
 *
 * Requests: same-origin GETs only. A file of this build is answered from the cache (and fetched
 * into it on a miss: the benchmark maps are kept once opened); a page navigation falls back to the
 * cached index.html when the network is gone. Anything else goes to the network untouched.
 */

/** The build's id; build.py replaces the placeholder (an unbuilt copy caches nothing). */
const BUILD = '__ARCSTAR_BUILD__';
const CACHE = `arcstar-${BUILD}`;
const PREFIX = 'arcstar-';

const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** A URL of this site, from a path relative to the worker's scope. @param {string} path */
const siteUrl = (path) => new URL(path, sw.registration.scope).href;

/** The files of this build, as manifest.json lists them (it must be this build's manifest). */
async function buildFiles() {
  const resp = await fetch(siteUrl('manifest.json'), { cache: 'no-cache' });
  if (!resp.ok) throw new Error(`manifest.json: HTTP ${resp.status}`);
  const manifest = await resp.json();
  // A deploy half done (new worker, old manifest): install later rather than mix two builds.
  if (manifest.build !== BUILD) throw new Error(`manifest.json is of build ${manifest.build}, not ${BUILD}`);
  const files = /** @type {unknown} */ (manifest.precache);
  if (!Array.isArray(files) || !files.every((f) => typeof f === 'string')) throw new Error('manifest.json lists no files to keep');
  return ['./', 'manifest.json', ...files].map(siteUrl);
}

sw.addEventListener('install', (event) => {
  if (BUILD.startsWith('__')) return; // not built: nothing to keep
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Revalidated, not taken from the HTTP cache unseen: a host's max-age could mix in an old build.
      await cache.addAll((await buildFiles()).map((url) => new Request(url, { cache: 'no-cache' })));
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
      await sw.clients.claim();
    })(),
  );
});

/**
 * The answer to a request of this site: the cached copy, else the network's (kept when it is a
 * whole, good answer), else for a page the cached index.html.
 * @param {Request} request
 * @returns {Promise<Response>}
 */
async function answer(request) {
  // Looked up by name, never opened here unless it stands: a worker on its way out (a new build
  // has deleted its cache and not yet taken the page over) would make the old cache again.
  const hit = await caches.match(request, { cacheName: CACHE, ignoreSearch: request.mode === 'navigate' });
  if (hit) return hit;
  try {
    const resp = await fetch(request);
    if (resp.ok && resp.status === 200 && resp.type === 'basic' && (await caches.has(CACHE))) {
      await (await caches.open(CACHE)).put(request, resp.clone());
    }
    return resp;
  } catch (e) {
    if (request.mode === 'navigate') {
      const page = await caches.match(siteUrl('./'), { cacheName: CACHE });
      if (page) return page;
    }
    throw e;
  }
}

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || BUILD.startsWith('__')) return;
  const url = new URL(request.url);
  if (url.origin !== location.origin || !url.href.startsWith(sw.registration.scope)) return;
  if (request.headers.has('range')) return; // partial answers are not kept
  event.respondWith(answer(request));
});
