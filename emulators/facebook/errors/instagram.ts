// Instagram publishing errors in Graph's envelope (graph.ts), with the codes and subcodes of
// Meta's Instagram error-codes page. Messages not quoted by a source are marked in the README.
import { graphError } from './graph.ts';

export const invalidParameter = (message: string, subcode?: number) =>
  graphError({ message: `(#100) ${message}`, code: 100, ...(subcode ? { subcode } : {}) });
export const unsupportedPost = (id: string) =>
  graphError({
    message: `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    code: 100, subcode: 33, type: 'GraphMethodException',
  });
export const downloadFailed = () =>
  graphError({ message: 'Only photo or video can be accepted as media type.', code: 9004, subcode: 2207052 });
export const unsupportedImage = () =>
  graphError({ message: 'The image format is not supported. Only JPEG and PNG are accepted.', code: 9004, subcode: 2207083 });
export const notReady = () => graphError({ message: 'Media ID is not available', code: 9007, subcode: 2207027 });
export const expiredContainer = () => graphError({ message: 'The media you are trying to access has expired. Please try again.', code: -2, subcode: 2207020 });
export const containerFailed = () => graphError({ message: 'The media could not be published: its container failed processing.', code: 9007, subcode: 2207001 });
export const alreadyPublished = () => graphError({ message: 'The media has already been published.', code: 9007, subcode: 2207008 });
export const publishLimit = () =>
  graphError({ message: 'Application request limit reached: you reached the maximum number of posts that is allowed to be published by Content Publishing API.', code: 9, subcode: 2207042 });
export const throttled = () =>
  graphError({ message: '(#80002) There have been too many calls to this Instagram account. Wait a bit and try again. For more info, please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.', code: 80002 });

/** The `status` text of a container whose processing failed (status_code ERROR). */
export const processingStatus = {
  download: 'Error: Media download has failed. The media URI doesn\'t meet our requirements. (2207052)',
  format: 'Error: The video format is not supported. Please check spec for supported streams (2207026)',
  failed: 'Error: An unexpected error occurred while processing the media. (2207001)',
};
