// Request examples shown in /openapi.json (and /docs) for `POST /v1/posts`: the shapes people get
// wrong most — a thread, a scheduled cross-post — and those each network adds for its own block (an
// Instagram carousel: src/networks/<id>/options.ts `examples`). Kept apart from the route
// (routes/posts.ts) so documentation edits never touch its handler; openapi-ids.ts attaches them.
import { NETWORK_LIST } from '../networks/registry.ts';

const THREAD = {
  summary: 'A thread on X: the first container is the post, the later ones its replies, in order',
  value: {
    accounts: ['my_x_handle'],
    containers: [
      { content: 'We just shipped scheduled posts 🎉 A thread on how they work:' },
      { content: '1/ Pick a time up to 30 days ahead with scheduledAt.' },
      { content: '2/ Change your mind? PATCH the post, or DELETE it to cancel.' },
    ],
  },
};

const SCHEDULED_CROSS_POST = {
  summary: 'One text on several networks at a set time (accounts by id or by exact username)',
  value: {
    accounts: ['my_x_handle', 'mycompany.bsky.social', 'my-linkedin-page'],
    content: 'Our spring sale starts now: 20% off everything until Sunday.',
    scheduledAt: '2026-12-01T09:00:00Z',
  },
};

/** Named examples (OpenAPI Example Objects) of a create-post body. */
export const CREATE_POST_EXAMPLES = {
  thread: THREAD,
  scheduledCrossPost: SCHEDULED_CROSS_POST,
  ...Object.assign({}, ...NETWORK_LIST.map((network) => network.options.examples ?? {})),
};
