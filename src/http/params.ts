// The `:id` path parameter of every route: one schema, and one answer for what is not an id Crier
// issued (a number beyond the id range, a float, an encoding we never produced): 404, exactly as for
// an unknown id or another organization's (docs/design.md §8), never a 400 for one form and a 500 for another.
import { Type } from '../validation/json-schema.ts';
import { RequestError } from '../core/errors.ts';

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, description: 'the id as the API returned it' }) });

/** The row id behind `raw`, parsed by `parse` (ids.ts); anything it refuses answers 404 `notFound`. */
export function requireId(raw: string, parse: (raw: string) => number | undefined, notFound: string): number {
  const id = parse(raw);
  if (id === undefined) throw new RequestError(404, notFound, { code: 'not_found' });
  return id;
}
