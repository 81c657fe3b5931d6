// com.atproto.repo writes: uploadBlob, createRecord, putRecord, deleteRecord.
import { sniff } from '../../shared/sniff.ts';
import { rawBody, type Reply } from '../../shared/http.ts';
import { cidForBlob } from '../cid.ts';
import { authRequired, internalError, invalidRequest, payloadTooLarge } from '../errors.ts';
import { checkCollection, checkRecordKey, commit, currentCommitCid, prepareWrite } from '../repo.ts';
import type { Account } from '../state.ts';
import { inputObject, requireStrings } from '../validate/params.ts';
import { isReply, type AuthedCall, type PdsWorld, type RateSpend, type XrpcMethod } from '../xrpc.ts';

const HOUR = 60 * 60 * 1000;

/** Write quotas per DID: 5,000 points an hour and 35,000 a day (create 3, update 2, delete 1). */
function writePoints(points: number) {
  return ({ auth }: AuthedCall): RateSpend[] => [
    { key: `write:${auth.did}:1h`, limit: 5000, windowMs: HOUR, points },
    { key: `write:${auth.did}:1d`, limit: 35000, windowMs: 24 * HOUR, points },
  ];
}

export function writeMethods(world: PdsWorld, blobLimit: number): XrpcMethod[] {
  const { store } = world;

  /** Input checks shared by the record writes; the account must be the caller's own. */
  const writeTarget = (call: AuthedCall, keys: string[], needsRecord: boolean): { body: Record<string, unknown>; account: Account } | Reply => {
    const body = inputObject(call);
    if (isReply(body)) return body;
    const problem = requireStrings(body, keys, ['rkey', 'swapCommit']) ?? checkCollection(body.collection as string);
    if (problem) return problem;
    if (needsRecord && body.record === undefined) return invalidRequest('Missing required key "record" at $');
    const account = store.findAccount(body.repo as string);
    if (!account) return invalidRequest(`Could not find repo: ${body.repo}`);
    if (account.did !== call.auth.did) return authRequired();
    const current = currentCommitCid(world, account.did);
    if (typeof body.swapCommit === 'string' && body.swapCommit !== current) {
      return invalidRequest(`Commit was at ${current}`, 'InvalidSwap');
    }
    return { body, account };
  };
  const swapRecordProblem = (body: Record<string, unknown>, currentCid: string | undefined): Reply | undefined => {
    if (!('swapRecord' in body) || body.swapRecord === undefined) return undefined;
    return body.swapRecord === (currentCid ?? null) ? undefined : invalidRequest(`Record was at ${currentCid ?? 'null'}`, 'InvalidSwap');
  };

  return [
    {
      nsid: 'com.atproto.repo.uploadBlob',
      type: 'procedure',
      auth: 'access',
      handler: ({ auth, body, contentType }) => {
        if (!contentType) return invalidRequest('Request encoding (Content-Type) required but not provided');
        const bytes = rawBody(body);
        if (bytes.length > blobLimit) return payloadTooLarge();
        // Like the PDS, trust the sniffed type over the declared one when the bytes are recognisable.
        const mimeType = sniff(bytes)?.mime ?? contentType.split(';')[0].trim();
        const cid = cidForBlob(bytes);
        store.blobs.get(auth.did)?.set(cid, { cid, mimeType, size: bytes.length, bytes });
        return { status: 200, body: { blob: { $type: 'blob', ref: { $link: cid }, mimeType, size: bytes.length } } };
      },
    },
    {
      nsid: 'com.atproto.repo.createRecord',
      type: 'procedure',
      auth: 'access',
      rateLimits: writePoints(3),
      handler: (call) => {
        const target = writeTarget(call, ['repo', 'collection'], true);
        if (isReply(target)) return target;
        const { body, account } = target;
        const collection = body.collection as string;
        const rkey = (body.rkey as string | undefined) ?? world.tids.next(world.clock.now());
        const keyProblem = checkRecordKey(collection, rkey);
        if (keyProblem) return keyProblem;
        const prepared = prepareWrite(world, account.did, collection, body.record, body.validate);
        if (isReply(prepared)) return prepared;
        // The PDS has no explicit check: its repo tree refuses the key and the request ends in a 500.
        if (store.getRecord(account.did, collection, rkey)) return internalError();
        const uri = `at://${account.did}/${collection}/${rkey}`;
        store.records.push({ uri, cid: prepared.cid, did: account.did, collection, rkey, value: prepared.value, indexedAt: world.clock.iso() });
        return { status: 200, body: { uri, cid: prepared.cid, commit: commit(world, account.did), validationStatus: prepared.validationStatus } };
      },
    },
    {
      nsid: 'com.atproto.repo.putRecord',
      type: 'procedure',
      auth: 'access',
      rateLimits: writePoints(2),
      handler: (call) => {
        const target = writeTarget(call, ['repo', 'collection', 'rkey'], true);
        if (isReply(target)) return target;
        const { body, account } = target;
        const collection = body.collection as string;
        const rkey = body.rkey as string;
        const keyProblem = checkRecordKey(collection, rkey);
        if (keyProblem) return keyProblem;
        const current = store.getRecord(account.did, collection, rkey);
        const swapProblem = swapRecordProblem(body, current?.cid);
        if (swapProblem) return swapProblem;
        const prepared = prepareWrite(world, account.did, collection, body.record, body.validate);
        if (isReply(prepared)) return prepared;
        const uri = `at://${account.did}/${collection}/${rkey}`;
        const result = { uri, cid: prepared.cid, validationStatus: prepared.validationStatus };
        if (current?.cid === prepared.cid) return { status: 200, body: result };
        if (current) Object.assign(current, { cid: prepared.cid, value: prepared.value });
        else store.records.push({ uri, cid: prepared.cid, did: account.did, collection, rkey, value: prepared.value, indexedAt: world.clock.iso() });
        return { status: 200, body: { ...result, commit: commit(world, account.did) } };
      },
    },
    {
      nsid: 'com.atproto.repo.deleteRecord',
      type: 'procedure',
      auth: 'access',
      rateLimits: writePoints(1),
      handler: (call) => {
        const target = writeTarget(call, ['repo', 'collection', 'rkey'], false);
        if (isReply(target)) return target;
        const { body, account } = target;
        const current = store.getRecord(account.did, body.collection as string, body.rkey as string);
        const swapProblem = swapRecordProblem(body, current?.cid);
        if (swapProblem) return swapProblem;
        if (!current) return { status: 200, body: {} };
        store.records.splice(store.records.indexOf(current), 1);
        return { status: 200, body: { commit: commit(world, account.did) } };
      },
    },
  ];
}
