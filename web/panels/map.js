// @ts-check
/**
 * The map panel: the map menu (built-in maps and this build's benchmark maps), Open file and
 * dropping files on the page (the map shows where they go), Copy text, Share link (the link is
 * copied and shown to select; a link too long offers the work file instead) and Save as (the
 * work JSON, a Moving AI .map and .scen, a PNG of the canvas).
 *
 * @module panels/map
 */

import { exportMovingAi, exportPng, exportScen, exportWork } from '../io/export.js';
import { asciiRows, openFiles } from '../io/maps.js';
import { makeLink } from '../io/share.js';
import { isWorkFile, openMapEntry, openWorkFile } from '../io/work.js';
import { $, messageOf } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */

/** How long "Copied" shows on the Copy text button, ms. */
const COPIED_MS = 1200;

/**
 * @param {AppState} app
 * @param {Engine} engine
 * @param {HTMLCanvasElement} canvas  the map (files dropped on the page are opened; the PNG is of it)
 */
export function mapPanel(app, engine, canvas) {
  const select = /** @type {HTMLSelectElement} */ ($('map-select'));
  const benchGroup = $('bench-group');
  const fileInput = /** @type {HTMLInputElement} */ ($('file'));
  const dropHint = $('drop-hint');
  const copyBtn = $('copy');
  const dropZone = document.body;
  const shareBox = $('share-box');
  const shareField = /** @type {HTMLInputElement} */ ($('share-link'));
  const shareNote = $('share-note');
  const shareFile = $('share-file');
  /** nested dragenter/dragleave pairs while a file is dragged over the map */
  const drag = { depth: 0 };
  /**
   * Open files chosen or dropped: work files as share links open, the rest (maps, scenarios) by the worker.
   * @param {File[]} files
   */
  async function open(files) {
    /** @type {File[]} */
    const maps = [];
    for (const f of files) {
      if (await isWorkFile(f)) {
        if (!(await openWorkFile(app, engine, f))) return;
      } else maps.push(f);
    }
    if (maps.length) await openFiles(app, engine, maps);
  }
  /** @type {{index: unknown}} the benchmark list the menu holds */
  const listed = { index: null };

  select.addEventListener('change', () => {
    openMapEntry(app, engine, select.value).catch((e) => {
      app.setStatus('error', `Error: ${messageOf(e)}`, 0);
      showMenu(); // the map shown did not change
    });
  });
  fileInput.addEventListener('change', async () => {
    const files = fileInput.files ? [...fileInput.files] : [];
    fileInput.value = '';
    if (files.length) await open(files);
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
  dropZone.addEventListener('dragleave', (e) => {
    if (!carriesFiles(e)) return;
    drag.depth = Math.max(0, drag.depth - 1);
    if (!drag.depth) dropHint.hidden = true;
  });
  dropZone.addEventListener('drop', (e) => {
    e.preventDefault();
    drag.depth = 0;
    dropHint.hidden = true;
    const files = e.dataTransfer ? [...e.dataTransfer.files] : [];
    if (files.length) void open(files);
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

  $('share').addEventListener('click', async () => {
    const made = await makeLink(app);
    shareBox.hidden = false;
    shareField.hidden = !('link' in made);
    shareFile.hidden = 'link' in made;
    if ('link' in made) {
      shareField.value = made.link;
      let copied = false;
      try {
        await navigator.clipboard.writeText(made.link);
        copied = true;
      } catch {
        /* no clipboard (permission, insecure page): the field is there to copy from */
      }
      shareNote.textContent = `${copied ? 'Copied. ' : ''}This link (${made.link.length.toLocaleString('en-US')} characters) opens this map with its start and goal, headings, units and settings. Later changes need a new link.`;
      shareField.focus();
      shareField.select();
    } else {
      shareField.value = '';
      shareNote.textContent = `No link: ${made.why}`;
    }
  });
  shareField.addEventListener('focus', () => shareField.select());
  shareFile.addEventListener('click', () => exportWork(app));
  $('export-json').addEventListener('click', () => exportWork(app));
  $('export-map').addEventListener('click', () => void exportMovingAi(app, engine));
  $('export-scen').addEventListener('click', () => void exportScen(app, engine));
  $('export-png').addEventListener('click', () => void exportPng(app, canvas));
  /** A link shown is for the work as it was: it goes when the work changes. */
  const hideLink = () => {
    if (shareBox.hidden) return;
    shareBox.hidden = true;
    shareField.value = '';
  };
  for (const topic of /** @type {const} */ (['map', 'costs', 'options', 'unit'])) app.on(topic, hideLink);

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
