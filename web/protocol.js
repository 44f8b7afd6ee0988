// @ts-check
/**
 * The worker protocol as the page speaks it: the typedefs of every message (they follow
 * pycore/arcstar/service/protocol.schema.json, the one definition; tests/js validates what the
 * builders here produce against it), the Status and ErrorKind values code reads, and pure
 * builders of the page's requests. engine.js re-exports all of it.
 *
 * @module protocol
 */

// ---------------------------------------------------------------- protocol types

/**
 * How a plan ended (arcstar.outcomes.Status; a result is never 'running').
 * @typedef {'found' | 'no_path' | 'unreachable' | 'budget_exhausted' | 'cancelled' | 'not_legal'} Status
 */
/** The Status values, by name. */
export const Status = Object.freeze({
  FOUND: /** @type {Status} */ ('found'),
  NO_PATH: /** @type {Status} */ ('no_path'),
  UNREACHABLE: /** @type {Status} */ ('unreachable'),
  BUDGET_EXHAUSTED: /** @type {Status} */ ('budget_exhausted'),
  CANCELLED: /** @type {Status} */ ('cancelled'),
  NOT_LEGAL: /** @type {Status} */ ('not_legal'),
});

/**
 * Whose fault an error is (arcstar.outcomes.ErrorKind).
 * @typedef {'bad_input' | 'internal'} ErrorKind
 */
/** The ErrorKind values, by name. */
export const ErrorKind = Object.freeze({
  BAD_INPUT: /** @type {ErrorKind} */ ('bad_input'),
  INTERNAL: /** @type {ErrorKind} */ ('internal'),
});

/** @typedef {string | number} Id  a string (<= 256 chars) or a JavaScript-safe integer */
/** @typedef {[number, number]} Tile  [x, y]: x grows right, y grows down */
/** @typedef {[number, number] | [number, number, number]} End  a tile, or [x, y, heading in radians] */
/** @typedef {End | [number, number, number[]]} GoalEnd  an End, or [x, y, [headings...]]: any of 1 to 8 */
/** @typedef {[number, number | null]} TerrainCost  [code, cost]; null is impassable */
/** @typedef {{code: number, name: string, char: string, cost: number | null}} Terrain */

/**
 * Page -> worker requests.
 * @typedef {{width: number, height: number, version: number | string, cells?: Uint8Array,
 *            terrain_costs?: TerrainCost[], kind?: 'squares' | 'hex' | 'waypoints', orientation?: 'pointy' | 'flat',
 *            nodes?: WaypointNode[], edges?: WaypointEdge[]}} WireMap
 * @typedef {{id: string | number, x: number, y: number}} WaypointNode  tile units
 * @typedef {{from: string | number, to: string | number}} WaypointEdge  costs its length
 * @typedef {{type: 'plan', id: Id, map: WireMap, start: End | Id, goal: GoalEnd | Id, alongside?: boolean, options?: Record<string, unknown>,
 *            code?: string}} PlanMessage  code: the Python panel's source (heuristic() and/or cost())
 * @typedef {{type: 'cancel', id: Id}} CancelMessage
 * @typedef {{type: 'info', id: Id}} InfoRequest
 * @typedef {'movingai' | 'json' | 'ascii'} MapFormat
 * @typedef {{type: 'load_map', id: Id, text: string, format?: MapFormat}} LoadMapMessage
 * @typedef {{type: 'load_scen', id: Id, text: string, width: number, height: number}} LoadScenMessage
 * @typedef {{type: 'describe', id: Id, options?: Record<string, unknown>}} DescribeRequest
 * @typedef {{type: 'write_map', id: Id, map: WireMap, format: 'movingai'}} WriteMapMessage
 * @typedef {[number, number] | [number, number, number | null]} WorldPoint  tiles (centres at +0.5); heading radians
 * @typedef {{id: string, kind?: 'tank' | 'car' | 'person', start: WorldPoint, goal?: WorldPoint | null, team?: string,
 *            width?: number, radius?: number, speed?: number, method?: string}} WorldUnit
 * @typedef {'move' | 'nearest' | 'patrol' | 'stop'} OrderKind
 * @typedef {{claimed?: boolean, paths?: boolean, team?: string | null, full?: boolean}} WorldView  what a state tells
 * @typedef {{type: 'world_info', id: Id}} WorldInfoRequest
 * @typedef {{type: 'world_preset', id: Id, name: string}} WorldPresetRequest
 * @typedef {{type: 'world_start', id: Id, map: WireMap, seed?: number, avoidance?: string, dt?: number, fog?: boolean}} WorldStartMessage
 * @typedef {{type: 'world_add', id: Id, units: WorldUnit[]}} WorldAddMessage
 * @typedef {{type: 'world_remove', id: Id, units: string[]}} WorldRemoveMessage
 * @typedef {{type: 'world_order', id: Id, units: string[], order: OrderKind, points?: WorldPoint[], queue?: boolean,
 *            spread?: boolean}} WorldOrderMessage
 * @typedef {{type: 'world_step', id: Id, ticks?: number, budget_ms?: number} & WorldView} WorldStepMessage
 * @typedef {{type: 'world_run', id: Id, running: boolean, speed?: number, claimed?: boolean, paths?: boolean,
 *            team?: string | null}} WorldRunMessage
 * @typedef {WorldInfoRequest | WorldPresetRequest | WorldStartMessage | WorldAddMessage | WorldRemoveMessage
 *           | WorldOrderMessage | WorldStepMessage | WorldRunMessage} WorldRequest
 * @typedef {'maze' | 'rooms' | 'caves' | 'obstacles' | 'roads'} GeneratorKind
 * @typedef {{kind: GeneratorKind, width: number, height: number, seed: number, density?: number | null,
 *            corridor?: number, room?: number}} GeneratorParams  tiles; seed 0..2^32-1; density: see the schema
 * @typedef {{type: 'generate', id: Id} & GeneratorParams} GenerateMessage
 * @typedef {{type: 'check_code', id: Id, code: string}} CheckCodeMessage  compile and sample the Python panel's code
 * @typedef {PlanMessage | CancelMessage | InfoRequest | LoadMapMessage | LoadScenMessage | DescribeRequest | WorldRequest
 *           | GenerateMessage | WriteMapMessage | CheckCodeMessage} PageRequest
 */

/**
 * Worker -> page answers.
 * @typedef {{type: 'boot', stage: 'pyodide' | 'numpy' | 'arcstar' | 'ready' | 'failed', progress: number,
 *            message: string, from_snapshot?: boolean}} BootMessage
 * @typedef {{type: 'started', id: Id}} StartedMessage
 * @typedef {{type: 'progress', id: Id, expanded: number, open: number}} ProgressMessage
 * @typedef {{type: 'result', id: Id, result: SearchResult}} ResultMessage
 * @typedef {{function: 'heuristic' | 'cost' | 'module' | null, line: number | null, reason: string}} CodeError
 *   where the Python panel's code failed: the function, the line in its source, why (a code)
 * @typedef {{type: 'error', id: Id | null, kind: ErrorKind, field: string, message: string, code_error?: CodeError}} ErrorMessage
 * @typedef {{type: 'code_checked', id: Id, functions: Array<'heuristic' | 'cost'>}} CodeCheckedMessage
 * @typedef {{type: 'cancelled', id: Id | null}} CancelledMessage
 * @typedef {{type: 'info', id: Id, version: string, methods: string[], heuristics: string[], diagonal: string[],
 *            costs: string[], open_lists: string[], stop: string[], limits: Record<string, Record<string, unknown>>,
 *            terrains: Terrain[]}} InfoMessage
 * @typedef {{type: 'map', id: Id, width: number, height: number, start: Tile | null, goal: Tile | null,
 *            terrains: Terrain[], format: MapFormat, cells: Uint8Array}} MapMessage
 * @typedef {{id: number, bucket: number, start: Tile, goal: Tile, optimal: number}} ScenarioEntry
 * @typedef {{type: 'scenarios', id: Id, scenarios: ScenarioEntry[]}} ScenariosMessage
 * @typedef {{type: 'describe', id: Id, optimal: boolean, legal: boolean | null, text: string}} DescribeMessage
 * @typedef {{code: number, name: string, tiles: number, cost: number | null, written: '.' | '@'}} LostTerrain
 *   a terrain a written map does not keep: its tiles were written as `written`
 * @typedef {{type: 'map_text', id: Id, format: 'movingai', text: string, lost: LostTerrain[]}} MapTextMessage
 * @typedef {{type: 'crashed', message: string}} CrashedMessage  the worker's runtime broke; it closes itself
 * @typedef {{type: 'world_info', id: Id, kinds: Record<string, {width: number, radius: number, speed: number}>,
 *            avoidance: string[], methods: string[], presets: string[], status_codes: string[], fog: boolean,
 *            limits: Record<string, unknown>}} WorldInfoMessage
 * @typedef {{type: 'world_scenario', id: Id, name: string, map: string[], seed: number, avoidance: string,
 *            duration: number, fog: boolean, units: WorldUnit[]}} WorldScenarioMessage
 * @typedef {{units: number, arrived: number, makespan: number | null, travel_sum: number, deepest_overlap: number,
 *            longest_stuck: number, stuck_now: number}} WorldMetrics
 * @typedef {{id: string, kind: 'tank' | 'car' | 'person' | null, team: string, width: number, radius: number,
 *            speed: number, method: string, can_reverse: boolean}} RosterEntry
 * @typedef {Object} WorldStateMessage  the world now (see the schema's world_state)
 * @property {'world_state'} type
 * @property {Id | null} id  null: a state the worker's scheduler posted while the world plays
 * @property {number} time  game seconds
 * @property {number} ticks
 * @property {number} dt
 * @property {number} stepped  ticks run for this answer
 * @property {boolean} busy  some unit moves or has orders
 * @property {string} avoidance
 * @property {boolean} fog
 * @property {number} roster_version
 * @property {boolean} [running]
 * @property {number} [speed]
 * @property {number} [lag]
 * @property {{x: Float64Array, y: Float64Array, heading: Float64Array, speed: Float64Array, status: Uint8Array}} units
 *   per unit, in roster order
 * @property {RosterEntry[]} [roster]  when units came or went
 * @property {Array<[string, string]>} notes  status texts that changed
 * @property {Array<[string, Array<Record<string, unknown>> | null]>} [paths]  paths that changed (segments)
 * @property {{tiles: Int32Array, counts: Int32Array}} [claimed]
 * @property {Array<[number, string, string, number, number]>} events  [t, unit, kind, x, y] since the last state
 * @property {{team: string, tiles: Uint8Array}} [known]  a team's known tiles under fog, when they changed
 * @property {WorldMetrics} metrics
 * @typedef {{type: 'generated', id: Id, width: number, height: number, start: Tile | null, goal: Tile | null,
 *            terrains: Terrain[], params: Required<GeneratorParams>, cells: Uint8Array}} GeneratedMessage
 *   a generated map (as a map answer), its ends, and the parameters as used (the density the kind used)
 * @typedef {BootMessage | StartedMessage | ProgressMessage | ResultMessage | ErrorMessage | CancelledMessage
 *           | InfoMessage | MapMessage | ScenariosMessage | DescribeMessage | CrashedMessage | WorldInfoMessage
 *           | WorldScenarioMessage | WorldStateMessage | GeneratedMessage | MapTextMessage | CodeCheckedMessage} WorkerAnswer
 */

/**
 * A finished plan (the schema's plan_result, with its binary parts as typed arrays).
 * @typedef {Object} SearchResult
 * @property {Status} status
 * @property {Tile[]} path   tiles, start to goal
 * @property {number | null} cost
 * @property {number} length
 * @property {number} expanded
 * @property {number} ms
 * @property {boolean} optimal
 * @property {string} message  for people only
 * @property {string} [method]
 * @property {Array<Record<string, unknown>>} [segments]  lines and arcs of a turned path
 * @property {number} [segments_length]
 * @property {boolean | null} [legal]
 * @property {number} [turns]
 * @property {Array<[number, number]>} [waypoints]
 * @property {Array<[number, number, number]>} [speed_limits]
 * @property {Array<[number, number]>} [blocked]
 * @property {Uint8Array | null} [explored]  one byte per tile: 0 unseen, 1 open, 2 closed
 * @property {number} [closed_count]
 * @property {number} [open_count]
 * @property {Record<string, Int32Array | Float64Array> | null} [trace]  replay arrays of a small search
 * @property {{opened: Uint8Array, closed: Uint8Array} | null} [heading_fans]  directional methods with trace:
 *   the states opened and closed, one byte per tile, bit k for heading k (view/stages.js reads them)
 * @property {unknown} [stages]  the hybrid's steps (astar, forward, backward, patch, failed; view/stages.js checks
 *   and reads them)
 * @property {{functions: string[], calls: {heuristic: number, cost: number}, heuristic_used: boolean,
 *             admissible: boolean | null}} [user_code]  a plan with the Python panel's code
 */

/**
 * @typedef {Object} PlanRequest
 * @property {{width: number, height: number, version: number | string, cells: Uint8Array,
 *             terrainCosts?: Array<[number, number | null]>, kind?: 'squares' | 'hex' | 'waypoints',
 *             orientation?: 'pointy' | 'flat', nodes?: WaypointNode[], edges?: WaypointEdge[]}} map
 *   hex: start and goal axial [q, r]; waypoints: node ids
 * @property {End | string | number} start
 * @property {GoalEnd | string | number} goal
 * @property {Record<string, unknown>} [options]
 * @property {string} [code]  the Python panel's source, when it is on
 * @property {(p: {expanded: number, open: number}) => void} [onProgress]
 */

// ---------------------------------------------------------------- message builders (pure)

/**
 * A plan message and what to transfer with it. With `withCells` the map's
 * cells (a copy, so the page keeps its own) and terrain costs go along.
 * @param {Id} id
 * @param {PlanRequest} req
 * @param {boolean} withCells
 * @returns {{message: PlanMessage, transfer: Transferable[]}}
 */
export function planMessage(id, req, withCells) {
  const { map } = req;
  /** @type {WireMap} */
  const wireMap = { width: map.width, height: map.height, version: map.version };
  /** @type {Transferable[]} */
  const transfer = [];
  // A hex map's cells travel as squares' do; a waypoint graph's nodes and edges in the JSON.
  if (map.kind) wireMap.kind = map.kind;
  if (map.orientation) wireMap.orientation = map.orientation;
  if (map.kind === 'waypoints') {
    wireMap.nodes = map.nodes;
    wireMap.edges = map.edges;
  } else if (withCells) {
    const copy = map.cells.slice();
    wireMap.cells = copy;
    if (map.terrainCosts) wireMap.terrain_costs = map.terrainCosts;
    transfer.push(copy.buffer);
  }
  /** @type {PlanMessage} */
  const message = { type: 'plan', id, map: wireMap, start: req.start, goal: req.goal, options: req.options || {} };
  if (typeof req.code === 'string') message.code = req.code;
  return { message, transfer };
}

/** @param {Id} id @returns {CancelMessage} */
export function cancelMessage(id) {
  return { type: 'cancel', id };
}

/** @param {Id} id @returns {InfoRequest} */
export function infoMessage(id) {
  return { type: 'info', id };
}

/** @param {Id} id @param {string} text @returns {LoadMapMessage} */
export function loadMapMessage(id, text) {
  return { type: 'load_map', id, text };
}

/**
 * @param {Id} id @param {string} text @param {number} width @param {number} height
 * @returns {LoadScenMessage}
 */
export function loadScenMessage(id, text, width, height) {
  return { type: 'load_scen', id, text, width, height };
}

/** @param {Id} id @param {Record<string, unknown>} [options] @returns {DescribeRequest} */
export function describeMessage(id, options = {}) {
  return { type: 'describe', id, options };
}

/**
 * A generate request: a seeded map from the core's generators (answered by `generated`).
 * @param {Id} id
 * @param {GeneratorParams} params
 * @returns {GenerateMessage}
 */
export function generateMessage(id, params) {
  return { ...params, type: 'generate', id };
}

/**
 * A world_start message and what to transfer with it: the map goes as a plan's does (its cells,
 * a copy, only with `withCells`), with its terrain costs always.
 * @param {Id} id
 * @param {PlanRequest['map']} map
 * @param {{seed?: number, avoidance?: string, dt?: number, fog?: boolean}} options
 * @param {boolean} withCells
 * @returns {{message: WorldStartMessage, transfer: Transferable[]}}
 */
export function worldStartMessage(id, map, options, withCells) {
  const { message: plan, transfer } = planMessage(id, { map, start: [0, 0], goal: [0, 0] }, withCells);
  // The costs always go along: the world is built from them (a plan takes them per query).
  if (map.terrainCosts) plan.map.terrain_costs = map.terrainCosts;
  return { message: { type: 'world_start', id, map: plan.map, ...options }, transfer };
}

/**
 * A write_map request without its id (what `Engine.request` takes): the map as a Moving AI .map,
 * written by the core under these terrain costs; the cells go along (a copy, so the page keeps its own).
 * @param {PlanRequest['map']} map
 * @returns {Omit<WriteMapMessage, 'id'>}
 */
export function writeMapRequest(map) {
  const wire = { width: map.width, height: map.height, version: map.version, cells: map.cells.slice() };
  return { type: 'write_map', format: 'movingai', map: map.terrainCosts ? { ...wire, terrain_costs: map.terrainCosts } : wire };
}

/**
 * A check_code request without its id (what `Engine.request` takes): compile the Python panel's
 * code and call its functions once on sample arguments (answered by code_checked, or an error
 * whose code_error says where).
 * @param {string} code
 * @returns {Omit<CheckCodeMessage, 'id'>}
 */
export function checkCodeRequest(code) {
  return { type: 'check_code', code };
}

/**
 * A request answered at once, from its fields without an id (what `Engine.request` takes).
 * @param {Id} id
 * @param {Record<string, unknown>} msg
 * @returns {PageRequest}
 */
export function requestMessage(id, msg) {
  return /** @type {PageRequest} */ ({ ...msg, id });
}
