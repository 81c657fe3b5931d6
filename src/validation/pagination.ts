// One pagination for every list endpoint, so `limit` and `offset` mean and refuse the same everywhere.
import { Type } from './json-schema.ts';

export const MAX_PAGE_SIZE = 100;

/**
 * The largest offset: 2^53 - 1. Beyond it a number from a query string is no longer exact in
 * JavaScript (99999999999999999999 reads as 1e20), and PostgreSQL's bigint ends not far above.
 */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

/** Spread into a route's querystring schema. Both are optional; Ajv fills in the defaults. */
export const PaginationQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 50, description: 'items per page' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'items to skip' })),
};

/** A page as the domain receives it once the defaults are in. */
export interface Page {
  limit: number;
  offset: number;
}
