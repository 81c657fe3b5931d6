// /v1/posts/:id/remote: the post as the networks it was published to show it. DELETE deletes it from
// them; PATCH changes its text there.
import { Type } from '../../validation/json-schema.ts';
import { validationError } from '../../core/errors.ts';
import { refuseUnknownFields } from '../../validation/strip.ts';
import type { FastifyInstance } from 'fastify';
import { userFetchFor } from '../../security/ssrf.ts';
import type { AppContext } from '../context.ts';
import { IdParams } from '../params.ts';

const ErrorSchema = Type.Object({ success: Type.Boolean(), error: Type.String(), code: Type.Optional(Type.String()), details: Type.Optional(Type.Unknown()) });

/** What each destination's network answered (a remote delete's or edit's outcome, by account). */
const outcomesSchema = (outcomes: string[]) => Type.Object({
  success: Type.Boolean(),
  data: Type.Array(Type.Object({
    social_account: Type.Object({ id: Type.String(), network: Type.String(), username: Type.String() }),
    platform_post_id: Type.Union([Type.String(), Type.Null()]),
    outcome: Type.String({ enum: outcomes }),
    error: Type.Optional(Type.String()),
  })),
});

export function postRemoteRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userFetch = userFetchFor(ctx.config.allowLoopbackFetch);
  const deps = { db: ctx.db, box: ctx.box, networks: ctx.networks, userFetch };
  app.delete<{ Params: { id: string } }>('/v1/posts/:id/remote', {
    schema: {
      summary: 'Delete a post from the networks',
      description: "Deletes every published destination from its network where the network's API allows it (every container Crier published there), and answers per account: `deleted` (now, or before), `not_supported` (the network's API cannot delete: do it in the network's app), `failed` with the network's reason (try again), `not_published` (nothing to delete). Deleted destinations show status `deleted`; Crier's record stays (DELETE /v1/posts/:id removes it). A post with destinations still to publish: 409.",
      tags: ['posts'],
      params: IdParams,
      response: { 200: outcomesSchema(['deleted', 'not_supported', 'failed', 'not_published']), 404: ErrorSchema, 409: ErrorSchema },
    },
    handler: async (request) => {
      const data = await (await import('../../engagement/remote-delete.ts')).deleteFromNetworks(deps, request.owner.orgId, request.params.id);
      return { success: true, data };
    },
  });

  const editable = ctx.networks.all.filter((network) => ctx.networks.capabilities(network.id).edit).map((network) => network.label).join(', ') || 'none yet';
  app.patch<{ Params: { id: string }; Body: EditBody }>('/v1/posts/:id/remote', {
    schema: {
      summary: 'Edit a post on the networks',
      description: "Changes the text of a published post on every network it went to whose API can edit one (" + editable + "), and answers per account: `edited`, `not_supported` (the network's API cannot edit: do it in the network's app), `failed` with the network's reason, `not_published` (nothing to edit), `unchanged` (none of the edited containers was published there). `content` is the first container's new text; `containers` gives each container's by position (an entry without `content` stays as it is). Texts are plain, as the containers' shared content (a platform block's own markup is not kept). Every destination to edit is judged first as publishing judges the edited post: one refusal is a 400 naming it, and nothing is changed anywhere. Media, content warnings and polls stay. Crier's record keeps the post as it was asked; each destination shows `editedAt` and `editedContainers` (what its network shows since). A post with destinations still to publish: 409.",
      tags: ['posts'],
      params: IdParams,
      body: Type.Object({
        content: Type.Optional(Type.String({ maxLength: 100_000, description: "The first container's new text." })),
        containers: Type.Optional(Type.Array(Type.Object({ content: Type.Optional(Type.String({ maxLength: 100_000 })) }), { minItems: 1, maxItems: 100, description: 'Each container\'s new text, by position; an entry without `content` stays as it is.' })),
        socialAccountIds: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: 1000, description: "The destinations' accounts to edit; absent: every one." })),
      }),
      response: { 200: outcomesSchema(['edited', 'not_supported', 'failed', 'not_published', 'unchanged']), 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
    },
    preValidation: async (request) => refuseUnknownFields(request.body, EDIT_FIELDS, 'a field of an edit'),
    handler: async (request) => {
      const { editOnNetworks } = await import('../../engagement/remote-edit.ts');
      const data = await editOnNetworks(deps, request.owner.orgId, request.params.id, { texts: editedTexts(request.body), socialAccountIds: request.body.socialAccountIds });
      return { success: true, data };
    },
  });
}

interface EditBody {
  content?: string;
  containers?: { content?: string }[];
  socialAccountIds?: string[];
}

const EDIT_FIELDS = ['content', 'containers', 'socialAccountIds'];

/** The new text of each container by position: `content` is the first's; one of the two, and some text. */
function editedTexts(body: EditBody): (string | undefined)[] {
  if (body.content !== undefined && body.containers !== undefined) throw validationError([{ field: 'content', message: 'give `content` or `containers`, not both' }]);
  if (body.content === undefined && body.containers === undefined) {
    throw validationError([{ field: 'content', message: "is required (the first container's new text), unless `containers` gives each container's" }]);
  }
  // Only the text changes: media or anything else in an entry would be ignored, so it is refused.
  const extra = (body.containers ?? []).flatMap((c, i) => Object.keys(c).filter((key) => key !== 'content').map((key) => ({
    field: `containers[${i}].${key}`, message: 'cannot be edited: an edit changes the text alone (media and the rest stay as published)',
  })));
  if (extra.length) throw validationError(extra);
  const texts = body.content !== undefined ? [body.content] : body.containers!.map((c) => c.content);
  if (!texts.some((t) => t !== undefined)) throw validationError([{ field: 'containers', message: 'no container has a new `content`: nothing to edit' }]);
  return texts;
}
