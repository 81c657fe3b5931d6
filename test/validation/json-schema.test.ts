// The schema builder writes plain JSON Schema: what Ajv validates and the OpenAPI document shows is
// exactly what JSON.stringify prints, optional properties leave `required`, and marking one optional
// never changes the schema it was given (a network's block schema is shared by several routes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { Type } from '../../src/validation/json-schema.ts';

test('each construct writes the JSON Schema keywords, options after its own', () => {
  assert.deepEqual(Type.String({ minLength: 1, description: 'd' }), { type: 'string', minLength: 1, description: 'd' });
  assert.deepEqual(Type.Integer({ minimum: 0 }), { type: 'integer', minimum: 0 });
  assert.deepEqual(Type.Number(), { type: 'number' });
  assert.deepEqual(Type.Boolean(), { type: 'boolean' });
  assert.deepEqual(Type.Null(), { type: 'null' });
  assert.deepEqual(Type.Unknown({ description: 'anything' }), { description: 'anything' });
  assert.deepEqual(Type.Literal(true), { type: 'boolean', const: true });
  assert.deepEqual(Type.Literal('draft'), { type: 'string', const: 'draft' });
  assert.deepEqual(Type.Literal(3), { type: 'number', const: 3 });
  assert.deepEqual(Type.Array(Type.String(), { maxItems: 3 }), { type: 'array', items: { type: 'string' }, maxItems: 3 });
  assert.deepEqual(Type.Union([Type.String(), Type.Null()]), { anyOf: [{ type: 'string' }, { type: 'null' }] });
  assert.deepEqual(Type.Record(Type.String(), Type.Unknown()), { type: 'object', patternProperties: { '^.*$': {} } });
  assert.deepEqual(Type.Unsafe({ type: ['string', 'null'] }), { type: ['string', 'null'] });
  // An option may override the construct's own keyword, in its place.
  assert.equal(JSON.stringify(Type.String({ type: 'number' })), '{"type":"number"}');
});

test('an object requires its properties but those marked optional, in their order; none required: no `required`', () => {
  const schema = Type.Object({ a: Type.String(), b: Type.Optional(Type.Integer()), c: Type.Boolean() }, { additionalProperties: false });
  assert.equal(JSON.stringify(schema),
    '{"type":"object","required":["a","c"],"properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"boolean"}},"additionalProperties":false}');
  assert.deepEqual(Type.Object({ a: Type.Optional(Type.String()) }), { type: 'object', properties: { a: { type: 'string' } } });
  assert.deepEqual(Object.keys(schema.properties.b), ['type'], 'the optional mark is not an enumerable keyword');
});

test('Optional copies: the schema it was given stays required where it is used as it is', () => {
  const block = Type.Object({ content: Type.String() });
  const optional = Type.Optional(block);
  assert.notEqual(optional, block);
  assert.deepEqual(Type.Object({ x: block }).required, ['x']);
  assert.equal(Type.Object({ x: optional }).required, undefined);
  assert.equal(Type.Object({ x: Type.Optional(optional) }).required, undefined);
});

test('Ajv validates by it as written', () => {
  const validate = new Ajv({ strict: true }).compile(Type.Object({
    name: Type.String({ minLength: 1 }),
    tags: Type.Optional(Type.Array(Type.String(), { maxItems: 2 })),
    note: Type.Union([Type.String(), Type.Null()]),
  }));
  assert.equal(validate({ name: 'a', note: null }), true);
  assert.equal(validate({ name: 'a', note: 'n', tags: ['x', 'y'] }), true);
  assert.equal(validate({ name: '', note: null }), false);
  assert.equal(validate({ name: 'a' }), false);
  assert.equal(validate({ name: 'a', note: null, tags: ['x', 'y', 'z'] }), false);
});
