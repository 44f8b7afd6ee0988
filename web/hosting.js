// @ts-check
/**
 * What the lab does about where it is hosted: it registers the service worker that keeps the
 * site for offline use and faster second visits (sw.js, at the site root), and it says what the
 * page lost when the host sends no cross-origin isolation headers (COOP/COEP: GitHub Pages, say).
 *
 * Every URL is relative to this module, so the site works from any sub-path.
 *
 * @module hosting
 */

/** The service worker, at the site root (this module is js/hosting.js). */
const SW_URL = new URL('../sw.js', import.meta.url);
const SITE_SCOPE = new URL('../', import.meta.url);

/**
 * Register the service worker once `after` settles (so its download of the site never competes
 * with the engine's boot), when the browser has service workers and the page came over http(s).
 * A failure only costs the offline copy: it is logged, and the lab works as before.
 * @param {Promise<unknown>} after
 * @returns {Promise<ServiceWorkerRegistration | null>}
 */
export async function keepForOffline(after) {
  if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return null;
  await after.catch(() => {});
  try {
    return await navigator.serviceWorker.register(SW_URL, { scope: SITE_SCOPE.pathname });
  } catch (e) {
    console.warn('[arcstar] the offline copy could not be set up:', e);
    return null;
  }
}

/**
 * What the page lost when it is not cross-origin isolated, or '' when it is.
 * @param {boolean} isolated  `crossOriginIsolated`
 */
export function isolationLoss(isolated) {
  if (isolated) return '';
  // The worker runs every search in slices of a few ms and handles a cancel between two, with or
  // without isolation (it does not use SharedArrayBuffer); what isolation adds is the fine timer.
  return (
    'This host sends no COOP/COEP headers (not cross-origin isolated): search times are to 0.1 ms, ' +
    'not 0.005 ms. Cancel works as usual.'
  );
}

/**
 * Show `isolationLoss` as a short line under the search buttons (hidden when nothing was lost).
 * @param {boolean} isolated
 */
export function showIsolation(isolated) {
  const text = isolationLoss(isolated);
  const note = document.createElement('p');
  note.className = 'hint';
  note.dataset.testid = 'isolation-note';
  note.textContent = text;
  note.hidden = !text;
  document.getElementById('find-hint')?.after(note);
}
