// A message a client asks Crier to send: text, and optional quick-reply buttons with the ids the
// client chose (sent back in message.received's `interaction` when the contact taps one). Limits are
// the network's (engagement.md §4.7.3-4): 1,000 bytes of text, 13 buttons, 20-character titles.
import { validationError, type FieldIssue } from '../core/errors.ts';

export const MAX_TEXT_BYTES = 1000;
export const MAX_QUICK_REPLIES = 13;
export const MAX_TITLE_CHARS = 20;
export const MAX_REPLY_ID_CHARS = 1000;

export interface OutgoingMessage {
  text: string;
  quickReplies?: { id: string; title: string }[];
}

export function checkMessage(body: Record<string, unknown>, issues: FieldIssue[] = []): OutgoingMessage {
  const { text, quickReplies } = body;
  if (typeof text !== 'string' || !text.trim()) issues.push({ field: 'text', message: 'must be the message text (not empty)' });
  else if (Buffer.byteLength(text, 'utf8') > MAX_TEXT_BYTES) issues.push({ field: 'text', message: `must be at most ${MAX_TEXT_BYTES} bytes (UTF-8)` });
  const replies = quickReplies === undefined || quickReplies === null ? undefined : checkQuickReplies(quickReplies, issues);
  if (issues.length) throw validationError(issues);
  return { text: text as string, ...(replies ? { quickReplies: replies } : {}) };
}

function checkQuickReplies(value: unknown, issues: FieldIssue[]): { id: string; title: string }[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_QUICK_REPLIES) {
    issues.push({ field: 'quickReplies', message: `must be an array of 1 to ${MAX_QUICK_REPLIES} buttons {id, title}` });
    return undefined;
  }
  const seen = new Set<string>();
  value.forEach((reply, i) => {
    const { id, title } = (typeof reply === 'object' && reply !== null ? reply : {}) as Record<string, unknown>;
    if (typeof id !== 'string' || !id || id.length > MAX_REPLY_ID_CHARS) issues.push({ field: `quickReplies[${i}].id`, message: `must be your id for the button (1 to ${MAX_REPLY_ID_CHARS} characters)` });
    else if (seen.has(id)) issues.push({ field: `quickReplies[${i}].id`, message: `"${id}" is the id of another button` });
    else seen.add(id);
    if (typeof title !== 'string' || !title.trim()) issues.push({ field: `quickReplies[${i}].title`, message: 'must be the button text (not empty)' });
    else if ([...title].length > MAX_TITLE_CHARS) issues.push({ field: `quickReplies[${i}].title`, message: `must be at most ${MAX_TITLE_CHARS} characters` });
  });
  return value as { id: string; title: string }[];
}
