// One check of every route's input before its own validation: what no route can store or safely walk
// (validation/json-input.ts) is a 400 naming the field, never a 500 from deeper down.
//
// And one check after it, of the query string and path as the schemas coerced them: Ajv turns the text
// `1e309`, `-1e309`, `Infinity` or `1e400` into an infinite number that its `integer` type and its
// minimum/maximum let through (its number keywords skip what is not finite), and PostgreSQL then
// refuses it. Every numeric parameter of every route is therefore a finite number, or a 400 naming it.
import type { FastifyInstance } from 'fastify';
import { validationError, type FieldIssue } from '../core/errors.ts';
import { unstorableInput } from '../validation/json-input.ts';

export function installInputScan(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const issues = [...unstorableInput(request.params), ...unstorableInput(request.query), ...unstorableInput(request.body)];
    if (issues.length) throw validationError(issues);
  });
  app.addHook('preHandler', async (request) => {
    const issues = [...infiniteNumbers(request.params), ...infiniteNumbers(request.query)];
    if (issues.length) throw validationError(issues);
  });
}

/** The parameters (flat, or arrays of values) that coerced to an infinite number. */
function infiniteNumbers(parameters: unknown): FieldIssue[] {
  if (typeof parameters !== 'object' || parameters === null) return [];
  const issues: FieldIssue[] = [];
  for (const [name, value] of Object.entries(parameters)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'number' && !Number.isFinite(v))) issues.push({ field: name, message: 'must be a finite number written in digits (not Infinity, nor beyond the range of a 64-bit float)' });
  }
  return issues;
}
