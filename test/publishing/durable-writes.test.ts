// The worker's writes: a failed batch is split and each item retried until written, never dropped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { durableWrites } from '../../src/publishing/durable-writes.ts';

test('a batch that fails is written item by item, and an item that keeps failing is retried until written', async () => {
  const writes: number[][] = [];
  let failuresOfThree = 2;
  const queue = durableWrites<number, string>({
    write: async (items) => {
      writes.push(items);
      if (items.length > 1) throw new Error('one bad row fails the statement');
      if (items[0] === 3 && failuresOfThree-- > 0) throw new Error('deadlock');
      return items.map((item) => `written ${item}`);
    },
    maxBatch: 10,
    logger: createLogger('silent'),
    label: 'test writes',
  });
  const first = queue.submit(1);
  const rest = [2, 3, 4].map((n) => queue.submit(n));
  assert.deepEqual(await Promise.all([first, ...rest]), ['written 1', 'written 2', 'written 3', 'written 4']);
  assert.deepEqual(writes, [[1], [2, 3, 4], [2], [3], [3], [3], [4]]);
});
