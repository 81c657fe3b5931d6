// Page publishing errors in Graph's envelope (graph.ts).
import { graphError } from './graph.ts';

export const blocked = () =>
  graphError({ message: '(#368) The action attempted has been deemed abusive or is otherwise disallowed', code: 368, subcode: 1390008 });
export const pageThrottled = () =>
  graphError({ message: '(#32) Page request limit reached', code: 32 });
export const needsPageToken = () =>
  graphError({ message: '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission', code: 200 });
export const missingMessage = () => graphError({ message: '(#100) The parameter message is required', code: 100 });
export const badAttachedMedia = (id: string) => graphError({ message: `(#100) Invalid attached_media: ${id} is not an unpublished photo of this Page`, code: 100 });
export const badPhoto = () => graphError({ message: '(#324) Requires upload file', code: 324 });
export const invalidImage = () => graphError({ message: 'Invalid parameter', code: 100, subcode: 2069019 });
/**
 * Reading a Page the token does not manage without the "Page Public Metadata Access" feature: the
 * #10 body reported from graph.facebook.com (restfb/restfb#1190; Meta also answers a #100 variant,
 * "Object does not exist, cannot be loaded due to missing permission or reviewable feature…").
 */
export const needsPublicMetadataAccess = () => graphError({
  message: "(#10) This endpoint requires the 'pages_read_engagement' permission or the 'Page Public Content Access' feature or the 'Page Public Metadata Access' feature. "
    + 'Refer to https://developers.facebook.com/docs/apps/review/login-permissions#manage-pages, https://developers.facebook.com/docs/apps/review/feature#reference-PAGES_ACCESS '
    + 'and https://developers.facebook.com/docs/apps/review/feature#page-public-metadata-access for details.',
  code: 10,
});
/**
 * /{page-id}/insights of a Page with fewer than 100 likes: error 2874008 of Meta's Pages API error-codes
 * page ("Facebook Page insights are only available for Pages with at l…", as far as the stored copy
 * reads). The code 100 beside the subcode and the end of the message are the emulator's.
 */
export const tooFewLikesForInsights = () =>
  graphError({ message: 'Facebook Page insights are only available for Pages with at least 100 likes.', code: 100, subcode: 2874008 });
