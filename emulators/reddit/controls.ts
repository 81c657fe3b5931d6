// What tests may do with the reddit emulator beyond its API: add users, subreddits, other redditors'
// comments and a submission's figures, throttle a user, hold an answer back, and read (as copies)
// every request, posting form, submission and comment. None of it has a Reddit counterpart.
import { randomBytes } from 'node:crypto';
import type { Comment, ReceivedForm, RedditRequestLog, RedditState, RedditUser, Submission, Subreddit } from './state.ts';

export interface AddRedditUserInput {
  id?: string;
  name?: string;
  displayName?: string;
  iconImg?: string;
  snoovatarImg?: string;
  linkKarma?: number;
  commentKarma?: number;
  subscribers?: number;
}

/** A comment by any redditor (`author` need not be a user of the emulator), on a submission or under a comment. */
export interface AddCommentInput {
  /** The submission (id or t3_ fullname) or the comment (t1_ fullname) it answers. */
  on: string;
  author: string;
  body: string;
  score?: number;
  /** Epoch seconds; default now (emulator clock). */
  createdUtc?: number;
}

/** A submission's figures as /api/info and listings show them. */
export interface SubmissionStats {
  score?: number;
  upvoteRatio?: number;
  viewCount?: number | null;
  numCrossposts?: number;
}

export interface RedditControls {
  addUser(input?: AddRedditUserInput): RedditUser;
  /** Every request received (the authorize page included), oldest first. */
  requests(): RedditRequestLog[];
  /** A subreddit users can post to (u_<name> profiles exist without it). */
  addSubreddit(input: Partial<Subreddit> & { name: string }): Subreddit;
  /** The user's submissions and comments answer RATELIMIT for `ms` (emulator clock). */
  throttle(userName: string, ms: number): void;
  /** Every submission made, oldest first. */
  submissions(): Submission[];
  /** Comments made, oldest first; of one submission (id or t3_ fullname) when given. */
  comments(submissionId?: string): Comment[];
  /** The form of every /api/submit and /api/comment call received, oldest first, refused ones too. */
  forms(): ReceivedForm[];
  /** The next `method path` call is handled at once (the post exists) but answered `ms` later. */
  delayNextAnswer(method: string, path: string, ms: number): void;
  /** Another redditor's comment (or the user's own), nested under `on`; answered as Reddit lists it. */
  addComment(input: AddCommentInput): Comment;
  /** Sets a submission's score, upvote ratio, view count, crossposts. */
  setSubmissionStats(submissionId: string, stats: SubmissionStats): void;
}

export function redditControls(state: RedditState): RedditControls {
  return {
    addUser: (input = {}) => {
      const id = input.id ?? randomBytes(6).readUIntBE(0, 6).toString(36).slice(0, 8);
      const name = input.name ?? `redditor_${id}`;
      const user: RedditUser = {
        id,
        name,
        displayName: input.displayName ?? '',
        iconImg: input.iconImg ?? `https://styles.redditmedia.com/t5_${id}/styles/profileIcon_${id}.png?width=256&height=256&crop=256:256,smart&s=${randomBytes(20).toString('hex')}`,
        snoovatarImg: input.snoovatarImg ?? '',
        linkKarma: input.linkKarma ?? 1,
        commentKarma: input.commentKarma ?? 0,
        subscribers: input.subscribers ?? 0,
      };
      state.users.set(id, user);
      state.accounts.set(name.toLowerCase(), `t2_${id}`);
      return { ...user };
    },
    requests: () => structuredClone(state.log),
    addSubreddit: (input) => ({ ...state.addSubreddit(input) }),
    throttle: (userName, ms) => state.throttle(userName, ms),
    submissions: () => structuredClone(state.submissions),
    comments: (submissionId) => structuredClone(state.comments.filter((c) => !submissionId || c.linkId === submissionId || c.linkId === `t3_${submissionId}`)),
    forms: () => structuredClone(state.received),
    delayNextAnswer: (method, path, ms) => { state.delays.push({ method: method.toUpperCase(), path, ms }); },
    addComment: (input) => {
      const parent = input.on.startsWith('t1_') ? state.comment(input.on) : undefined;
      const submission = state.submission(parent ? parent.linkId.slice(3) : input.on.replace(/^t3_/, ''));
      if (!submission) throw new Error(`no reddit submission or comment ${input.on}`);
      const comment = state.addComment({ author: input.author, body: input.body, parentId: parent?.name ?? submission.name, submission, score: input.score, createdUtc: input.createdUtc });
      return structuredClone(comment);
    },
    setSubmissionStats: (submissionId, stats) => {
      const submission = state.submission(submissionId.replace(/^t3_/, ''));
      if (!submission) throw new Error(`no reddit submission ${submissionId}`);
      Object.assign(submission, Object.fromEntries(Object.entries(stats).filter(([, v]) => v !== undefined)));
    },
  };
}
