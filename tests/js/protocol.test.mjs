// The JS side of the worker protocol: what web/engine.js builds, and what the Python service
// answers, both validated with ajv against the one schema,
// pycore/arcstar/service/protocol.schema.json.
//
//   node --test tests/js/            (tests/unit/test_protocol_js.py runs this under pytest)
//
// The service's answers come from the real Service: this test runs
// `python -m protocol_samples` (tests/unit/protocol_samples.py) with pycore/ on PYTHONPATH;
// $ARCSTAR_PYTHON picks the interpreter (default python3; it needs numpy).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'pycore', 'arcstar', 'service', 'protocol.schema.json'), 'utf8'));

/** Validators per direction, with the definition of each message type for readable failures. */
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(SCHEMA);
const DIRECTIONS = ['page_request', 'service_request', 'answer'];
/** @type {Record<string, import('ajv').ValidateFunction>} */
const validators = Object.fromEntries(DIRECTIONS.map((d) => [d, ajv.getSchema(`${SCHEMA.$id}#/$defs/${d}`)]));

/** The $defs name of each message type, per direction. */
const byType = Object.fromEntries(
  DIRECTIONS.map((d) => [
    d,
    Object.fromEntries(
      SCHEMA.$defs[d].oneOf.map((/** @type {{$ref: string}} */ r) => {
        const name = r.$ref.split('/').pop();
        return [SCHEMA.$defs[name].properties.type.const, name];
      }),
    ),
  ]),
);

const DTYPE_OF = new Map([
  [Uint8Array, 'uint8'],
  [Int32Array, 'int32'],
  [Float64Array, 'float64'],
]);

/**
 * The JSON form of a posted message: each typed array becomes the binary descriptor
 * {name: its path, dtype, length} that stands in its place in the schema.
 * @param {any} value
 * @param {string} [path]
 * @returns {any}
 */
function jsonForm(value, path = '') {
  if (ArrayBuffer.isView(value)) {
    const dtype = DTYPE_OF.get(/** @type {any} */ (value).constructor);
    assert.ok(dtype, `${path}: a ${value.constructor.name} is not a protocol dtype`);
    return { name: path, dtype, length: /** @type {any} */ (value).length };
  }
  if (Array.isArray(value)) return value.map((v, i) => jsonForm(v, `${path}.${i}`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonForm(v, path ? `${path}.${k}` : k)]));
  }
  return value;
}

/**
 * Assert that a message is valid in a direction, naming what its type's definition objects to.
 * @param {any} message
 * @param {string} direction
 */
function assertValid(message, direction) {
  const json = jsonForm(message);
  if (validators[direction](json)) return;
  const def = byType[direction][json && json.type];
  const detail = def ? ajv.getSchema(`${SCHEMA.$id}#/$defs/${def}`) : validators[direction];
  detail(json);
  const errors = (detail.errors || []).map((e) => `${e.instancePath || '/'} ${e.message}`).slice(0, 5);
  assert.fail(`${JSON.stringify(json).slice(0, 200)} is not a valid ${direction}: ${errors.join('; ')}`);
}

/** @param {any} message @param {string} direction */
function assertInvalid(message, direction) {
  assert.equal(validators[direction](jsonForm(message)), false, `${JSON.stringify(message)} should be refused`);
}

// engine.js is an ES module in a folder without package.json "type": "module": import a copy
// of web/ from a temporary folder that says so.
/** @type {typeof import('../../web/engine.js')} */
let engine;
/** @type {string} */
let webCopy;

before(async () => {
  webCopy = mkdtempSync(join(tmpdir(), 'arcstar-web-'));
  cpSync(join(ROOT, 'web'), webCopy, { recursive: true });
  writeFileSync(join(webCopy, 'package.json'), '{"type": "module"}\n');
  engine = await import(pathToFileURL(join(webCopy, 'engine.js')).href);
});

after(() => {
  if (webCopy) rmSync(webCopy, { recursive: true, force: true });
});

describe('the schema', () => {
  test('compiles under ajv strict mode and lists every message type', () => {
    const world = ['world_info', 'world_preset', 'world_start', 'world_add', 'world_remove', 'world_order', 'world_step'];
    assert.deepEqual(Object.keys(byType.page_request), [
      'plan', 'cancel', 'info', 'load_map', 'load_scen', 'describe', ...world, 'world_run', 'generate', 'write_map',
      'check_code',
    ]);
    assert.deepEqual(Object.keys(byType.service_request), [
      'plan', 'step', 'cancel', 'info', 'load_map', 'load_scen', 'describe', ...world, 'generate', 'write_map', 'check_code',
    ]);
    assert.deepEqual(Object.keys(byType.answer), [
      'boot', 'started', 'progress', 'result', 'error', 'cancelled', 'info', 'map', 'scenarios', 'describe',
      'crashed', 'world_info', 'world_scenario', 'world_state', 'generated', 'map_text',
      'code_checked',
    ]);
  });

  test("engine.js's Status and ErrorKind are the schema's enums", () => {
    assert.deepEqual(Object.values(engine.Status), SCHEMA.$defs.status.enum);
    assert.deepEqual(Object.values(engine.ErrorKind), SCHEMA.$defs.error_kind.enum);
  });
});

describe('requests built by engine.js', () => {
  const cells = new Uint8Array([0, 0, 1, 0, 2, 0]);
  const req = { map: { width: 3, height: 2, version: 4, cells, terrainCosts: [[2, null], [3, 1.5]] }, start: [0, 0], goal: [2, 1] };

  test('plan, with its cells beside the JSON (a transferred copy)', () => {
    const { message, transfer } = engine.planMessage(7, /** @type {any} */ (req), true);
    assertValid(message, 'page_request');
    assert.ok(message.map.cells instanceof Uint8Array && message.map.cells !== cells);
    assert.deepEqual([...message.map.cells], [...cells]);
    assert.deepEqual(transfer, [message.map.cells.buffer]);
    assert.deepEqual(message.map.terrain_costs, [[2, null], [3, 1.5]]);
  });

  test('plan without cells (the worker holds that version), with a heading and options', () => {
    const { message, transfer } = engine.planMessage(
      'p8',
      /** @type {any} */ ({ ...req, start: [0, 0, Math.PI / 2], options: { method: 'dijkstra', width: 1.5 } }),
      false,
    );
    assertValid(message, 'page_request');
    assert.equal(message.map.cells, undefined);
    assert.deepEqual(transfer, []);
  });

  test('cancel, info, load_map, load_scen, describe', () => {
    for (const message of [
      engine.cancelMessage(3),
      engine.infoMessage('r1'),
      engine.loadMapMessage('r2', 'type octile\nheight 1\nwidth 2\nmap\n..\n'),
      engine.loadScenMessage('r3', 'version 1\n', 2, 1),
      engine.describeMessage('r4', { method: 'astar', heuristic: 'octile' }),
      engine.describeMessage('r5'),
      engine.requestMessage('r6', { type: 'info' }),
      engine.requestMessage('r7', { type: 'load_scen', text: 'version 1\n', width: 2, height: 1 }),
    ]) {
      assertValid(message, 'page_request');
    }
  });

  test('write_map carries its map as a plan does, with a copy of its cells and its costs', () => {
    const message = engine.requestMessage('r9', engine.writeMapRequest(/** @type {any} */ (req.map)));
    assertValid(message, 'page_request');
    const map = /** @type {any} */ (message).map;
    assert.ok(map.cells instanceof Uint8Array && map.cells !== cells);
    assert.deepEqual(map.terrain_costs, [[2, null], [3, 1.5]]);
    assertInvalid({ ...message, format: 'png' }, 'page_request');
  });

  test("the Python panel's code goes with a plan and alone in check_code; only text is code", () => {
    const code = 'def heuristic(x, y, gx, gy):\n    return 0\n';
    const { message } = engine.planMessage('pc', /** @type {any} */ ({ ...req, code }), true);
    assertValid(message, 'page_request');
    assert.equal(message.code, code);
    assert.equal(engine.planMessage('pn', /** @type {any} */ (req), true).message.code, undefined);
    assertValid(engine.requestMessage('cc', engine.checkCodeRequest(code)), 'page_request');
    assertInvalid({ ...message, code: 12 }, 'page_request');
    assertInvalid({ ...message, code: 'x'.repeat(70_000) }, 'page_request');
  });

  test('world messages: world_start carries its map as a plan does; the others are plain requests', () => {
    const { message, transfer } = engine.worldStartMessage('w1', /** @type {any} */ (req.map), { seed: 2, avoidance: 'none', fog: false }, true);
    assertValid(message, 'page_request');
    assert.ok(message.map.cells instanceof Uint8Array && message.map.cells !== cells);
    assert.deepEqual(transfer, [message.map.cells.buffer]);
    assert.deepEqual(message.map.terrain_costs, [[2, null], [3, 1.5]]);
    const bare = engine.worldStartMessage('w2', /** @type {any} */ (req.map), {}, false);
    assert.equal(bare.message.map.cells, undefined);
    assert.deepEqual(bare.message.map.terrain_costs, [[2, null], [3, 1.5]]); // the world is built from them
    assertValid(bare.message, 'page_request');
    for (const msg of [
      { type: 'world_info' },
      { type: 'world_preset', name: 'door' },
      { type: 'world_add', units: [{ id: 'a', kind: 'tank', team: 'red', start: [1.5, 1.5, 0], goal: [4.5, 1.5] }] },
      { type: 'world_remove', units: ['a'] },
      { type: 'world_order', units: ['a', 'b'], order: 'move', points: [[3.5, 2.5, null]], queue: true, spread: true },
      { type: 'world_order', units: ['a'], order: 'stop' },
      { type: 'world_step', ticks: 1, claimed: true, paths: true, team: 'red', full: false },
      { type: 'world_run', running: true, speed: 2, claimed: false, paths: true, team: null },
    ]) {
      assertValid(engine.requestMessage('r', msg), 'page_request');
    }
    assertInvalid(engine.requestMessage('r', { type: 'world_run', running: true, speed: 100 }), 'page_request');
    assertInvalid(engine.requestMessage('r', { type: 'world_step', ticks: 201 }), 'page_request');
    assertInvalid(engine.requestMessage('r', { type: 'world_add', units: [{ id: 'a', kind: 'dragon', start: [1, 1] }] }), 'page_request');
  });

  test('generate: the parameters as fields of the request', () => {
    assertValid(engine.generateMessage('g1', { kind: 'maze', width: 41, height: 31, seed: 7 }), 'page_request');
    assertValid(engine.generateMessage('g2', { kind: 'caves', width: 64, height: 48, seed: 0, density: 0.45 }), 'page_request');
    assertValid(engine.generateMessage('g3', { kind: 'obstacles', width: 3, height: 1024, seed: 2 ** 32 - 1, density: null }), 'page_request');
    const bad = /** @type {any[]} */ ([
      { kind: 'labyrinth', width: 9, height: 9, seed: 1 },
      { kind: 'maze', width: 0, height: 9, seed: 1 },
      { kind: 'maze', width: 9, height: 1e6, seed: 1 },
      { kind: 'obstacles', width: 9, height: 9, seed: 1, density: 2 },
      { kind: 'maze', width: 9, height: 9, seed: 'abc' },
      { kind: 'maze', width: 9, height: 9, seed: 2 ** 32 },
      { kind: 'maze', width: 9, height: 9, seed: 1, colour: 'red' },
    ]);
    for (const params of bad) assertInvalid(engine.generateMessage('g', params), 'page_request');
  });

  test('what the schema refuses', () => {
    assertInvalid({ ...engine.infoMessage('r1'), extra: 1 }, 'page_request');
    assertInvalid(engine.infoMessage(2 ** 53), 'page_request');
    assertInvalid({ type: 'step', id: 1, budget_ms: 8 }, 'page_request'); // only the worker steps
    const { message } = engine.planMessage(1, /** @type {any} */ ({ ...req, start: [0.5, 0] }), true);
    assertInvalid(message, 'page_request');
  });

  test('EngineError carries kind and field from an error answer', () => {
    const answer = { type: 'error', id: 3, kind: 'bad_input', field: 'options.weight', message: 'weight must be ...' };
    assertValid(answer, 'answer');
    const e = engine.EngineError.fromAnswer(/** @type {any} */ (answer));
    assert.ok(e instanceof Error);
    assert.equal(e.kind, 'bad_input');
    assert.equal(e.field, 'options.weight');
    assert.equal(e.id, 3);
    const internal = new engine.EngineError('The search worker failed');
    assert.equal(internal.kind, 'internal');
    assert.equal(internal.field, '');
  });
});

describe('answers made by the Python service', () => {
  /** @type {{requests: any[], answers: any[]}} */
  let samples;

  before(() => {
    const python = process.env.ARCSTAR_PYTHON || 'python3';
    const env = { ...process.env, PYTHONPATH: [join(ROOT, 'pycore'), join(ROOT, 'tests', 'unit'), process.env.PYTHONPATH]
      .filter(Boolean).join(delimiter) };
    const run = spawnSync(python, ['-m', 'protocol_samples'], { cwd: ROOT, env, encoding: 'utf8', timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024 });
    assert.equal(run.error, undefined, `could not run ${python}: ${run.error}`);
    assert.equal(run.status, 0, `${python} -m protocol_samples failed:\n${run.stderr}`);
    samples = JSON.parse(run.stdout);
  });

  test('every answer type, and every one validates', () => {
    for (const answer of samples.answers) assertValid(answer, 'answer');
    assert.deepEqual(new Set(samples.answers.map((a) => a.type)), new Set(Object.keys(byType.answer)));
  });

  test('the requests the service accepted validate as service requests', () => {
    for (const request of samples.requests) assertValid(request, 'service_request');
    assert.deepEqual(new Set(samples.requests.map((r) => r.type)), new Set(Object.keys(byType.service_request)));
  });

  test('errors carry a kind and a field, results a status', () => {
    const errors = samples.answers.filter((a) => a.type === 'error');
    assert.ok(errors.some((e) => e.kind === 'bad_input' && e.field === 'options.weight'));
    const statuses = new Set(samples.answers.filter((a) => a.type === 'result').map((a) => a.result.status));
    for (const status of statuses) assert.ok(Object.values(engine.Status).includes(status), status);
  });
});
