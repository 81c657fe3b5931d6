// The real pool with its queries counted, for tests of what an idle loop asks the database (a
// listening connection's LISTEN goes through connect(), not counted).
import type { Db } from '../../src/db/pool.ts';

export function countingQueries(db: Db): { db: Db; queries(): number } {
  let queries = 0;
  const counted = new Proxy(db, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (name === 'query') return (...args: unknown[]) => { queries++; return (value as (...a: unknown[]) => unknown).apply(target, args); };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Db;
  return { db: counted, queries: () => queries };
}
