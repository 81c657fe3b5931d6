// Reads the PDS answers itself: com.atproto.repo.getRecord / listRecords and
// com.atproto.identity.resolveHandle.
import { invalidRequest } from '../errors.ts';
import { recordView } from '../repo.ts';
import { intParam, requireStrings } from '../validate/params.ts';
import type { PdsWorld, XrpcMethod } from '../xrpc.ts';

export function readMethods(world: PdsWorld): XrpcMethod[] {
  const { store } = world;
  return [
    {
      nsid: 'com.atproto.repo.getRecord',
      type: 'query',
      auth: 'none',
      handler: ({ params }) => {
        const problem = requireStrings(params, ['repo', 'collection', 'rkey'], ['cid']);
        if (problem) return problem;
        const account = store.findAccount(params.repo as string);
        // Repos hosted elsewhere would be fetched from the AppView, which this PDS lacks.
        if (!account) return invalidRequest('Could not locate record');
        const uri = `at://${account.did}/${params.collection}/${params.rkey}`;
        const record = store.getRecord(account.did, params.collection as string, params.rkey as string);
        if (!record || (params.cid && params.cid !== record.cid)) {
          return invalidRequest(`Could not locate record: ${uri}`, 'RecordNotFound');
        }
        return { status: 200, body: recordView(record) };
      },
    },
    {
      nsid: 'com.atproto.repo.listRecords',
      type: 'query',
      auth: 'none',
      handler: ({ params }) => {
        const problem = requireStrings(params, ['repo', 'collection'], ['cursor']);
        if (problem) return problem;
        const limit = intParam(params.limit, 'limit', 50, 1, 100);
        if (typeof limit !== 'number') return limit;
        const account = store.findAccount(params.repo as string);
        if (!account) return invalidRequest(`Could not find repo: ${params.repo}`);
        const reverse = params.reverse === 'true';
        const { cursor } = params;
        // Newest first by record key; `reverse` lists oldest first. The cursor is the last key seen.
        const records = store.records
          .filter((r) => r.did === account.did && r.collection === params.collection)
          .sort((a, b) => (reverse ? compare(a.rkey, b.rkey) : compare(b.rkey, a.rkey)))
          .filter((r) => cursor === undefined || (reverse ? r.rkey > cursor : r.rkey < cursor))
          .slice(0, limit);
        const last = records.at(-1);
        return { status: 200, body: { records: records.map(recordView), ...(last ? { cursor: last.rkey } : {}) } };
      },
    },
    {
      nsid: 'com.atproto.identity.resolveHandle',
      type: 'query',
      auth: 'none',
      handler: ({ params }) => {
        const problem = requireStrings(params, ['handle']);
        if (problem) return problem;
        const handle = (params.handle as string).toLowerCase();
        const account = [...store.accounts.values()].find((a) => a.handle === handle);
        if (!account) return invalidRequest('Unable to resolve handle');
        return { status: 200, body: { did: account.did } };
      },
    },
  ];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
