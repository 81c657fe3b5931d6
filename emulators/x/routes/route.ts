// What X route modules share: the request view handed to handlers and the shape of a route.
import type { Reply } from '../../shared/http.ts';
import type { FieldVocabulary } from '../validate/description.ts';
import type { XUser } from '../state.ts';

export interface XRequest {
  user: XUser;
  params: Record<string, string>;
  /** Each query parameter's value (the server refuses a repeated one before the handler runs). */
  query: Record<string, string | undefined>;
  body: unknown;
  contentType: string;
  /** The vocabulary this request speaks: `post` when it names `post.fields` (or only posts are accepted). */
  vocabulary: FieldVocabulary;
}

/**
 * A route behind a user access token. The scopes its token must carry are the description's
 * (`security` of the operation: validate/scopes.ts), not the route's own.
 */
export interface XRoute {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  handler(req: XRequest): Reply | Promise<Reply>;
}

/** A token-less route (the OAuth endpoints), which authenticates the client itself. */
export interface XPublicRoute {
  method: 'GET' | 'POST';
  url: string;
  handler(req: { body: unknown; authorization: string | undefined; query: Record<string, string | undefined> }): Reply;
}
