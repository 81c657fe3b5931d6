// YouTube connects through Google's OAuth (src/networks/google/oauth.ts): the upload scope and the
// force-ssl scope (comments, and reading the channel), then the channel the token acts for. A Google
// account without a YouTube channel cannot publish: the connect fails saying so.
import { createGoogleOAuth, googleApiError } from '../google/oauth.ts';
import { networkHosts, OAuthError, oauthCall, type NetworkOAuth } from '../oauth.ts';

export const YOUTUBE_SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.force-ssl',
] as const;

export function createYoutubeOAuth(override: string | undefined): NetworkOAuth {
  const hosts = networkHosts({ api: 'https://www.googleapis.com' }, override);
  return createGoogleOAuth({
    network: 'youtube',
    scopes: YOUTUBE_SCOPES,
    requiredScopes: YOUTUBE_SCOPES,
    scopeHint: 'upload videos and manage comments on YouTube',
    override,
    async login({ tokens }) {
      const res = await oauthCall('youtube', `${hosts.api}/youtube/v3/channels?part=snippet&mine=true`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
      if (!res.ok) throw googleApiError('youtube', 'the channel', res);
      const channel = Array.isArray(res.body?.items) ? res.body.items[0] : undefined;
      if (!channel) {
        throw new OAuthError('revoked', 'youtube: this Google account has no YouTube channel; create one (https://www.youtube.com/create_channel) and connect again');
      }
      if (typeof channel.id !== 'string' || !channel.id) throw new OAuthError('transient', 'youtube: the channel answer has no id');
      const snippet = channel.snippet ?? {};
      const title = typeof snippet.title === 'string' && snippet.title ? snippet.title : channel.id;
      const thumbnails = snippet.thumbnails ?? {};
      const picture = thumbnails.default?.url ?? thumbnails.medium?.url ?? thumbnails.high?.url;
      return {
        choose: false,
        candidates: [{
          id: channel.id,
          type: 'channel',
          name: title,
          username: typeof snippet.customUrl === 'string' && snippet.customUrl ? snippet.customUrl : title,
          profilePictureUrl: typeof picture === 'string' ? picture : null,
          tokens,
        }],
      };
    },
  });
}
