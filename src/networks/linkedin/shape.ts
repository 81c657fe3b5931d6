// LinkedIn's judgement: what LinkedIn cannot publish, judged from the post alone. The publishing side
// refuses it before any call (adapter.ts), and the dry run and the create say so (media.ts judge); the
// dry run shows the post as LinkedIn takes it (measure).
import type { JudgedWhen, MeasuredPost } from '../contract.ts';
import type { PreflightPost } from '../../core/post.ts';
import { PublishError } from '../../core/errors.ts';
import { characters, commentsOf, measureText, mediaOf, overLimit, rootTextOf } from '../measure.ts';

const MAX_IMAGES = 20;
/** A post's commentary (meta-x-linkedin-bluesky.md §5.3: 3,000 characters). */
const COMMENTARY = characters(3000);

type ArticleCard = { source: string; title?: string };

/** The commentary (linkedin.content, else the root's text) with the root's media or article card; later containers as comments. */
export function measure(input: PreflightPost): MeasuredPost {
  const article = (input.block as { article?: ArticleCard } | undefined)?.article;
  const root = { role: 'post' as const, ...measureText(COMMENTARY, rootTextOf(input)), media: mediaOf(input.containers[0]) };
  const card = article ? { note: `with an article card: ${article.title ?? article.source}` } : {};
  return { parts: [{ ...root, ...card }, ...commentsOf(input)], leftOut: 0 };
}

/**
 * What LinkedIn cannot publish, refused before any call: later containers become comments, which
 * carry text only; the root has 1 to 20 images, or one video, or one document, or an article card
 * with a title (`when: 'create'` leaves that out: UNTITLED_ARTICLE);
 * the commentary (linkedin.content, else the root's text) is at most 3,000 characters.
 * (Whether a file is an image, a video or a document is known from its bytes, at upload: uploads.ts.)
 */
export function checkShape(input: PreflightPost, when: JudgedWhen = 'publish'): void {
  const root = input.containers[0]!.media;
  input.containers.slice(1).forEach((container, i) => {
    if (container.media.length) throw refused(`container ${i + 2} has media, but LinkedIn publishes later containers as comments on the post, which carry text only`);
  });
  if (root.length > MAX_IMAGES) throw refused(`the post has ${root.length} media; LinkedIn takes up to ${MAX_IMAGES} images in one post`);
  const article = (input.block as { article?: ArticleCard } | undefined)?.article;
  if (root.length && article) {
    throw refused('the post has both media and linkedin.article; LinkedIn shows either media or an article card');
  }
  if (article && !article.title && when === 'publish') throw refused(UNTITLED_ARTICLE);
  const commentary = measure(input).parts[0]!;
  if (overLimit(commentary)) throw refused(`the post's text is ${commentary.length} characters; LinkedIn takes up to ${commentary.limit}`);
}

/**
 * The Posts API requires an article's title (learn.microsoft.com/linkedin/marketing/community-management/
 * shares/posts-api, "Article"; LinkedIn answers 422 "/content/article/title :: field is required",
 * searlsco/posse_party#14) and reads nothing from the page, and Crier does not fetch the page for one.
 * The spec makes the title optional, so the create accepts the post (as it does X's text lengths);
 * the dry run says this, and publishing refuses it before any call.
 */
const UNTITLED_ARTICLE = 'linkedin.article has no title; LinkedIn requires the title of an article card (it does not read it from the page): set linkedin.article.title';

const refused = (why: string) => new PublishError('permanent', `linkedin: ${why}`, undefined, 'invalid');
