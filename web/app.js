// @ts-check
/**
 * The lab's state: one object owns everything in the page that changes (the map model with its
 * undo history, the settings as typed, the engine's status, the last result and what is drawn
 * of it, the replay, the comparison, the benchmark scenarios, the unit and the view). Commands
 * change it and then `emit` a topic; the panels subscribed to that topic show it again, and the
 * canvas view reads it on its next frame. Nothing else in the page keeps state of its own.
 *
 * Coordinates are tiles: tile (x, y), x right, y down; headings in radians, 0 = +x, pi/2 = +y.
 *
 * @module app
 */

import { defaultPython } from './python.js';
import { MapModel, sameTile } from './state.js';
import { Unit } from './unit.js';
import { Viewport } from './view/viewport.js';

/** @typedef {import('./state.js').Tile} Tile */
/** @typedef {import('./segments.js').SegmentPath} SegmentPath */
/** @typedef {import('./replay.js').Replay} Replay */

/**
 * A terrain type from the core: code in the map array, name, ASCII character, and move cost
 * (multiplies a step entering the tile; null = impassable).
 * @typedef {{code: number, name: string, char: string, cost: number | null}} TerrainType
 */

/**
 * A map as the page holds it: terrain codes row-major (y * width + x), and the markers it brings.
 * @typedef {{width: number, height: number, cells: Uint8Array, start?: Tile | null, goal?: Tile | null,
 *            costs?: Array<number | null>}} LabMap
 */

/**
 * A built-in map as the build writes it: the cells as runs [code, count, code, count, ...].
 * @typedef {{width: number, height: number, runs: number[], start: Tile | null, goal: Tile | null}} EncodedMap
 */

/**
 * What the core tells the page at build time (js/core-data.json): the terrain table, the codes of
 * ground and wall, and the built-in maps.
 * @typedef {{terrains: TerrainType[], ground: number, wall: number, maps: Record<string, EncodedMap>}} CoreData
 */

/**
 * What the page keeps of the last search (also returned by findPath).
 * @typedef {Object} LastResult
 * @property {string} status  a Status of the protocol, or 'error'
 * @property {Tile[]} [path]
 * @property {number | null} [cost]
 * @property {number} [length]
 * @property {number} [expanded]
 * @property {number} [ms]
 * @property {boolean} [optimal]  whether the method guarantees the least cost
 * @property {number} [closedCount]
 * @property {number} [openCount]
 * @property {Tile} [start]
 * @property {Tile} [goal]
 * @property {number} [version]  the map version searched
 * @property {string} [message]  for people
 * @property {boolean} [replay]  whether the search can be replayed
 * @property {number | null} [optimalLength]  the benchmark scenario's optimal length, if one was searched
 * @property {boolean | null} [matchesOptimal]  whether the length found matches it
 * @property {string | null} [turning]  the turning method planned with (null: the tile path)
 * @property {Array<Record<string, unknown>>} [segments]  with turning: the lines and arcs (see segments.js)
 * @property {boolean | null} [legal]  with turning: whether the body never overlaps a wall
 * @property {Array<[number, number]>} [blocked]  stretches (distances) where it does
 * @property {Array<[number, number, number]>} [speedLimits]  [from, to, factor] stretches
 * @property {number} [turns]
 * @property {number | null} [segmentsLength]
 * @property {number} [pivots]  with turning: the corners where the unit stops and turns on the spot
 * @property {{ran: string, asked: string, reason: string} | null} [fallback]  the core planned with
 *   another method than the one asked (its `method`), and why
 * @property {boolean} [edited]  the map changed while the search ran: it is reported for the map before
 * @property {{start: import('./engine.js').End, goal: import('./engine.js').End}} [ends]  the start and goal as sent
 *   (with their headings, radians)
 * @property {string | null} [curves]  the method that planned the curves itself (directional, hybrid), else null
 * @property {string} [method]  the method the core planned with (its `method`)
 */

/**
 * A realistic path to draw and drive.
 * @typedef {{route: SegmentPath, limits: Array<[number, number, number]>, pivots: number[], blocked: Array<[number, number]>}} Planned
 */

/**
 * The search drawn on the map (it stays drawn, dimmed, after the map or the markers change).
 * @typedef {Object} ShownSearch
 * @property {Uint8Array | null} explored  0 unseen, 1 open, 2 closed, per tile
 * @property {Replay | null} scores  its G, H and parents per tile, when it can be replayed
 * @property {Tile[]} path
 * @property {Planned | null} planned
 * @property {number} version  the map version it ran on
 * @property {Tile} from  the tile it started from
 * @property {Tile} start  the markers when it ran
 * @property {Tile} goal
 * @property {(v: number) => string} format  how its scores are written
 * @property {string | null} [curves]  the method that planned the curves itself: its `path` lists the lattice
 *   states passed, not neighbouring tiles (drawn as such, never as a line)
 * @property {import('./view/stages.js').Fans | null} [fans]  the directional states seen, per tile and heading
 *   (when the service sends them)
 * @property {import('./view/stages.js').Stages | null} [stages]  the hybrid's stages (when the core sends them)
 * @property {Array<string | number>} [nodes]  on a waypoint graph: the path's point ids
 * @property {Map<number, number>} [graphNodes]  on a waypoint graph: point id -> its index in `explored`
 * @property {number} [graphVersion]  on a waypoint graph: the graph's version searched
 */

/**
 * A search being replayed.
 * @typedef {{player: Replay, driven: boolean, owed: number, last: number}} ReplayState
 * owed: expansions owed to the player (fractional); last: when it last advanced (performance.now)
 */

/**
 * What a map, a preset or a benchmark changed in the search settings (null: nothing to say):
 * the words, and the step of the undo history that takes it back (null once undone).
 * @typedef {{text: string, undo: (() => void) | null, step: import('./state.js').Command | null} | null} SettingsNote
 */

/**
 * Why there is nothing to replay: no search yet (on this map), one is running, the map was edited
 * since, recording was off, the search was too large to record, or it was cancelled or failed.
 * @typedef {'none' | 'searching' | 'edited' | 'off' | 'too_large' | 'unrecorded' | 'cancelled' | 'failed'} NoReplay
 */

/**
 * One plan of Pinter's Figure 1.
 * @typedef {{key: string, label: string, color: string, visible: boolean, status: string, length: number | null,
 *   turns: number | null, legal: boolean | null, message: string, route: SegmentPath | null,
 *   tiles: Tile[] | null, blocked: Array<[number, number]>}} ComparedPlan
 */

/**
 * A Moving AI scenario.
 * @typedef {{id: number, bucket: number, start: Tile, goal: Tile, optimal: number}} Scenario
 */

/** @typedef {{name: string, map: string, scen?: string | null, width?: number, height?: number}} BenchEntry */

/**
 * The search settings as typed; numbers stay text until they are read (controls.js).
 * @typedef {{method: string, neighbours: string, diagonal: string, costs: string, heuristic: string,
 *            weight: string, open_list: string, turn_penalty: string, stop: string, max_expansions: string,
 *            trace: boolean, unreadable: string[]}} SearchInput
 * unreadable: the number fields whose text the browser could not read as a number
 */

/**
 * The unit's settings as typed; on_edit: what the unit does when the map is edited under its path.
 * @typedef {{turning: string, radius: string, width: string, art: string, can_reverse: boolean,
 *            on_edit: 'stop' | 'replan', start_heading: string, goal_heading: string, people: boolean}} UnitInput
 * start_heading, goal_heading: degrees as typed, clockwise from east ('' = east / any heading; headings.js);
 * people: plan as a person walks (the core's tight radius and turn penalty), where the method charges turns
 */

/**
 * A unit in the lab's world, as the page knows it: what it is (from the roster), where it is and
 * what it does (the last world_state, and the one before it, to draw in between), and the orders
 * the page gave it (for the unit panel).
 * @typedef {Object} LabUnit
 * @property {string} id
 * @property {'tank' | 'car' | 'person' | null} kind
 * @property {string} team
 * @property {number} width  tiles
 * @property {number} radius  tiles
 * @property {number} topSpeed  tiles/s
 * @property {number} x
 * @property {number} y
 * @property {number} heading  radians, 0 = +x, pi/2 = +y
 * @property {number} speed  tiles/s, negative in reverse
 * @property {number} px  the position and heading in the state before (drawn in between)
 * @property {number} py
 * @property {number} ph
 * @property {string} status  a status code's name (idle, moving, arrived, stopped, patrolling, failed, waiting)
 * @property {string} note  the core's status text (why a plan failed, ...)
 * @property {import('./segments.js').SegmentPath | null} path  what it drives now, when paths are shown
 * @property {number[]} claimed  its claimed tiles, flat y * width + x, when they are shown
 * @property {string[]} orders  the orders the page gave it, oldest first, for people
 */

/**
 * The units in motion: the world in the worker and what the lab shows of it.
 * @typedef {Object} WorldLab
 * @property {import('./protocol.js').WorldInfoMessage | null} info  what the core offers (kinds, avoidance, presets)
 * @property {boolean} on  a world runs in the worker for this map
 * @property {'edit' | 'units'} mode  what the mouse does on the map: edit the terrain, or place and command units
 * @property {'select' | 'tank' | 'car' | 'person'} tool  in units mode: select and order, or place a unit of a kind
 * @property {string} team  the team of units placed
 * @property {LabUnit[]} units  in the world's order
 * @property {number} rosterVersion
 * @property {Set<string>} selected
 * @property {boolean} running  playing
 * @property {number} speed  game seconds per second
 * @property {number} time  game seconds
 * @property {number} ticks
 * @property {number} dt
 * @property {number} lag  game time the worker dropped, not keeping up, s
 * @property {number} stateAt  when the last state came (performance.now), to draw between states
 * @property {number} stateGap  ms between the last two states
 * @property {string} avoidance
 * @property {boolean} fog  the world keeps per-team known maps
 * @property {string} player  whose known map is shown under fog ('' none)
 * @property {Uint8Array | null} known  that team's known tiles (1 known)
 * @property {boolean} showClaimed
 * @property {boolean} showPaths
 * @property {Array<{t: number, unit: string, kind: string, x: number, y: number}>} events  the recent ones
 * @property {import('./protocol.js').WorldMetrics | null} metrics
 * @property {string} preset  the preset loaded ('' none)
 * @property {number} seed
 * @property {{text: string, error: boolean} | null} message  the last thing the world said, for people
 * @property {number} nextId  for the ids of units placed
 * @property {{x0: number, y0: number, x1: number, y1: number} | null} box  a box selection being dragged (tiles)
 * @property {import('./orders.js').PendingOrder} order  what a right-click orders, and the points marked so far
 * @property {number} states  world states received (tests wait on it)
 * @property {number} epoch  bumped by every new map, restart and scenario load: one still on its way
 *   when a later one begins stops at its next step (it would mix the old units into the new world)
 * @property {number} loads  scenarios loaded to the end (tests wait on it)
 * @property {import('./state.js').Command | null} presetStep  the undo step that loaded the scenario
 *   shown (choosing another avoidance loads it again and keeps the history up to that step)
 */

/**
 * What changed, for the panels that show it.
 * @typedef {'status' | 'controls' | 'options' | 'choices' | 'unit' | 'terrain' | 'costs' | 'replay' | 'bench' | 'compare'
 *           | 'map' | 'maps' | 'view' | 'hover' | 'notes' | 'help' | 'world' | 'methods' | 'race'} Topic
 * map: the map model changed (terrain, costs, markers, a new map); maps: the map menu's entries; world: the units;
 * methods: compare mode's choice and runs; race: its race moved (compare.js)
 */

/** @type {ReadonlySet<Topic>} The topics the canvas does not show. */
const OFF_CANVAS = new Set(['status', 'controls', 'options', 'choices', 'unit', 'costs', 'maps', 'bench', 'notes', 'help', 'methods', 'race']);

export class AppState {
  /**
   * @param {CoreData} core
   * @param {LabMap} map  the first map (the example)
   * @param {{search: SearchInput, unit: UnitInput, choices: Record<string, string[]>}} settings  the first settings
   */
  constructor(core, map, settings) {
    /** @type {CoreData} what the core said at build time (read only) */
    this.core = core;
    this.model = new MapModel(map, { costs: core.terrains.map((t) => t.cost), ground: core.ground, wall: core.wall });
    /** the map menu's entry for the map shown ('' when it came from elsewhere) */
    this.mapKey = 'example';
    /** @type {import('./generator.js').GeneratorSettings | null} the last generator's settings (autosaved) */
    this.generator = null;
    /** the Paint tool's terrain, the tool, the brush side in tiles */
    this.paint = { code: core.wall, tool: /** @type {'paint' | 'erase'} */ ('paint'), brush: 1 };
    /** @type {Map<number, string>} the cost inputs' errors, by terrain code */
    this.costErrors = new Map();
    this.search = settings.search;
    /** @type {Record<string, string[]>} the values each menu offers (the engine's `info` replaces them) */
    this.choices = settings.choices;
    /** @type {Record<string, Record<string, unknown>>} per method, what it accepts (the engine's `info.limits`) */
    this.limits = {};
    /** @type {SettingsNote} what a map, preset or benchmark changed in the settings */
    this.settingsNote = null;
    /** @type {{text: string, error: boolean} | null} a notice over the map (restored work, or why it could not be) */
    this.notice = null;
    /** what autosave says when it cannot keep the work ('' when it does) */
    this.saveNote = '';
    /** the pending timers: the debounced autosave and re-plan (0: none) */
    this.timers = { autosave: 0, replan: 0 };
    /** @type {'start' | 'goal'} the marker the heading keys turn (the last one clicked or turned) */
    this.markerFocus = 'start';
    /** @type {{step: import('./state.js').Command | null, which: 'start' | 'goal', at: number}} the last wheel turn's
     * undo step (later notches join it) */
    this.headingStep = { step: null, which: 'start', at: 0 };
    /** the help overlay is open */
    this.helpOpen = false;
    /** @type {{text: string, optimal: boolean} | null} what the settings guarantee, in the core's words */
    this.guarantee = null;
    this.unitInput = settings.unit;
    /** @type {'loading' | 'ready' | 'failed'} */
    this.engineState = 'loading';
    /** why the last engine stopped, told once its successor is ready ('' when none did) */
    this.engineStopped = '';
    /** @type {{state: string, text: string, progress: number | null}} the status line */
    this.status = { state: 'loading', text: 'Starting the search engine…', progress: 0 };
    this.searching = false;
    /** what the hint under Find path says while it cannot search ('' for the page's own words) */
    this.findHint = '';
    /** searches settled (found, failed, cancelled or refused): lets tests wait for the next one */
    this.searches = 0;
    /** @type {LastResult | null} */
    this.result = null;
    /** @type {ShownSearch | null} */
    this.shown = null;
    /** @type {ReplayState | null} */
    this.replay = null;
    /** @type {NoReplay} why there is no replay, while there is none */
    this.noReplay = 'none';
    /** the replay speed slider's position, 0..1000 */
    this.replaySlider = 394;
    /** @type {{on: boolean, plans: ComparedPlan[] | null}} Pinter's Figure 1 */
    this.compare = { on: false, plans: null };
    /** @type {import('./compare.js').CompareMode} compare mode: 2 to 4 methods on one query, and their race */
    this.methods = { chosen: ['astar', 'dijkstra'], open: false, layout: 'side', running: false, map: null, runs: null, error: '', finished: 0,
      race: { k: 0, playing: false, slider: 394, last: 0 } };
    /** @type {{name: string, scenarios: Scenario[], chosen: Scenario | null} | null} the scenarios offered */
    this.bench = null;
    /** @type {{text: string, ok: boolean | null}} the benchmark verdict or hint */
    this.benchNote = { text: '', ok: null };
    /** @type {BenchEntry[] | null} the benchmark maps of this build (null: not listed yet) */
    this.benchIndex = null;
    /** the unit's driving speed as set, tiles per second (long paths are driven faster) */
    this.driveSpeed = 8;
    this.unit = new Unit(this.driveSpeed);
    this.viewport = new Viewport();
    this.showGrid = true;
    /** @type {Tile | null} the tile under the mouse */
    this.hover = null;
    /** @type {import('./python.js').PythonState} the Python panel: the user's heuristic() and cost() */
    this.python = defaultPython();
    /** @type {WorldLab} the units in motion */
    this.world = {
      info: null, on: false, mode: 'edit', tool: 'select', team: 'blue', units: [], rosterVersion: 0, selected: new Set(),
      running: false, speed: 1, time: 0, ticks: 0, dt: 0.05, lag: 0, stateAt: 0, stateGap: 50, avoidance: 'none', fog: false,
      player: '', known: null, showClaimed: false, showPaths: true, events: [], metrics: null, preset: '', seed: 1,
      message: null, nextId: 1, box: null, states: 0, epoch: 0, loads: 0, presetStep: null, order: { kind: 'move', points: [] },
    };
    /** Space is held (a left drag pans), and whether it panned meanwhile (then releasing it does not play) */
    this.space = { held: false, panned: false };
    /** a frame is owed */
    this.dirty = true;
    /** @type {Map<Topic, Set<() => void>>} */
    this.listeners = new Map();
  }

  /**
   * Call `fn` whenever `topic` is emitted.
   * @param {Topic} topic
   * @param {() => void} fn
   */
  on(topic, fn) {
    const set = this.listeners.get(topic) ?? new Set();
    set.add(fn);
    this.listeners.set(topic, set);
  }

  /**
   * Say that a part of the state changed: its panels show it again, and a frame is owed unless
   * the canvas shows none of it.
   * @param {...Topic} topics
   */
  emit(...topics) {
    if (topics.some((t) => !OFF_CANVAS.has(t))) this.dirty = true;
    for (const topic of topics) for (const fn of this.listeners.get(topic) ?? []) fn();
  }

  /**
   * @param {string} state  loading | ready | searching | found | no_path | cancelled | error
   * @param {string} text
   * @param {number | null} [progress]  0..1, null for an indeterminate bar, or unchanged
   */
  setStatus(state, text, progress) {
    this.status = { state, text, progress: progress === undefined ? this.status.progress : progress };
    this.emit('status');
  }

  /** @param {number} code */
  terrainOf(code) {
    return this.core.terrains.find((t) => t.code === code);
  }

  /** @param {number} code */
  terrainName(code) {
    return this.terrainOf(code)?.name ?? `terrain ${code}`;
  }

  /** Whether the last result was for another map than the one shown (an edit since it ran). */
  get resultStale() {
    const r = this.result;
    return !!r && typeof r.version === 'number' && r.version !== this.model.version;
  }

  /** Whether the drawn search no longer matches the map or the markers (it is drawn dimmed). */
  get stale() {
    const s = this.shown;
    return !!s && (s.version !== this.model.version || !sameTile(s.start, this.model.start) || !sameTile(s.goal, this.model.goal));
  }
}

/**
 * Whether a result carries a path to draw and drive: found, or found but not legal for the unit.
 * @param {string} status
 */
export function hasPath(status) {
  return status === 'found' || status === 'not_legal';
}
