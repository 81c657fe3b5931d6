// One check of every route's input before its own validation: what no route can store or safely walk
// (validation/json-input.ts) is a 400 naming the field, never a 500 from deeper down.
import type { FastifyInstance } from 'fastify';
import { validationError } from '../errors.ts';
import { unstorableInput } from '../validation/json-input.ts';

export function installInputScan(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const issues = [...unstorableInput(request.params), ...unstorableInput(request.query), ...unstorableInput(request.body)];
    if (issues.length) throw validationError(issues);
  });
}
