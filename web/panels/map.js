// @ts-check
/**
 * The map panel: the map menu (built-in maps and this build's benchmark maps), Open file and
 * dropping files on the map, and Copy text.
 *
 * @module panels/map
 */

import { asciiRows, openFiles, openMap } from '../io/maps.js';
import { $, messageOf } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */

/** How long "Copied" shows on the Copy text button, ms. */
const COPIED_MS = 1200;

/**
 * @param {AppState} app
 * @param {Engine} engine
 * @param {HTMLCanvasElement} canvas  files dropped on it are opened
 */
export function mapPanel(app, engine, canvas) {
  const select = /** @type {HTMLSelectElement} */ ($('map-select'));
  const benchGroup = $('bench-group');
  const fileInput = /** @type {HTMLInputElement} */ ($('file'));
  const dropHint = $('drop-hint');
  const copyBtn = $('copy');
  const dropZone = /** @type {HTMLElement} */ (canvas.parentElement);
  /** nested dragenter/dragleave pairs while a file is dragged over the map */
  const drag = { depth: 0 };
  /** @type {{index: unknown}} the benchmark list the menu holds */
  const listed = { index: null };

  select.addEventListener('change', () => {
    openMap(app, engine, select.value).catch((e) => {
      app.setStatus('error', `Error: ${messageOf(e)}`, 0);
      showMenu(); // the map shown did not change
    });
  });
  fileInput.addEventListener('change', async () => {
    const files = fileInput.files ? [...fileInput.files] : [];
    fileInput.value = '';
    if (files.length) await openFiles(app, engine, files);
  });
  /** @param {DragEvent} e */
  const carriesFiles = (e) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
  dropZone.addEventListener('dragenter', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    drag.depth++;
    dropHint.hidden = false;
  });
  dropZone.addEventListener('dragover', (e) => {
    if (!carriesFiles(e) || !e.dataTransfer) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  dropZone.addEventListener('dragleave', () => {
    drag.depth = Math.max(0, drag.depth - 1);
    if (!drag.depth) dropHint.hidden = true;
  });
  dropZone.addEventListener('drop', (e) => {
    e.preventDefault();
    drag.depth = 0;
    dropHint.hidden = true;
    const files = e.dataTransfer ? [...e.dataTransfer.files] : [];
    if (files.length) openFiles(app, engine, files);
  });
  copyBtn.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(asciiRows(app).join('\n') + '\n');
      copyBtn.textContent = 'Copied';
    } catch {
      copyBtn.textContent = 'Copy failed';
    }
    setTimeout(() => (copyBtn.textContent = 'Copy text'), COPIED_MS);
  });

  /** @param {import('../app.js').BenchEntry[]} index */
  function listBenchmarks(index) {
    benchGroup.textContent = '';
    if (!index.length) {
      const opt = document.createElement('option');
      opt.value = '';
      opt.disabled = true;
      opt.textContent = 'none in this build (the shared Moving AI maps were not found)';
      benchGroup.append(opt);
      return;
    }
    for (const e of index) {
      const opt = document.createElement('option');
      opt.value = `bench:${e.name}`;
      opt.textContent = Number.isInteger(e.width) && Number.isInteger(e.height) ? `${e.name} ${e.width}x${e.height}` : e.name;
      benchGroup.append(opt);
    }
  }

  /** The menu shows the map shown (none when it came from a file). */
  function showMenu() {
    if (app.benchIndex && listed.index !== app.benchIndex) {
      listBenchmarks(app.benchIndex);
      listed.index = app.benchIndex;
    }
    if (app.mapKey) select.value = app.mapKey;
    else select.selectedIndex = -1;
  }

  app.on('maps', showMenu);
}
