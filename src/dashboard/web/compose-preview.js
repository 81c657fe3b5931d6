// Compose's preview: the post as each targeted network will publish it, from the dry run's `preview`
// (the network's own measure: the text it receives, counted its way, against the limit its
// publishing refuses past). One card per network; a thread is a sequence of parts; an over-limit part
// says so in words and with a symbol, colour being only a third cue; media are laid out as thumbnails
// (images Crier holds) or labelled boxes.
import { html } from 'htm/preact';
import { NetworkIcon, networkName } from './ui.js';

/** What the API's `unit` is, for people; and, past a limit, how the network counts where that surprises. */
const UNIT_WORDS = {
  weighted: 'weighted characters',
  graphemes: 'characters',
  characters: 'characters',
  utf16: 'UTF-16 units',
  utf8_bytes: 'bytes',
  emoji_bytes: 'characters',
};
const UNIT_HINTS = {
  weighted: 'A link counts 23, an emoji or most CJK characters 2.',
  emoji_bytes: 'An emoji counts its UTF-8 bytes (4 for most).',
  utf8_bytes: 'Letters beyond plain Latin take 2 to 4 bytes each.',
};
const ROLE_WORDS = { post: 'Post', reply: 'Reply', comment: 'Comment' };

/** "31 / 280 characters" (the count alone where no limit is judged); past the limit, a warning in words. */
function Counter({ measured, what }) {
  const unit = UNIT_WORDS[measured.unit] ?? measured.unit;
  const prefix = what ? `${what}: ` : '';
  if (measured.limit === null) return html`<p class="preview-count">${prefix}${measured.length} ${unit}</p>`;
  const over = measured.length - measured.limit;
  if (over <= 0) return html`<p class="preview-count">${prefix}${measured.length} / ${measured.limit} ${unit}</p>`;
  return html`<p class="preview-count preview-over" role="note">
    <span aria-hidden="true">⚠</span> <strong>${what ? `${what} too long` : 'Too long'}: ${measured.length} / ${measured.limit} ${unit}</strong>, ${over} over the limit. The network will refuse this part.${UNIT_HINTS[measured.unit] ? ` ${UNIT_HINTS[measured.unit]}` : ''}
  </p>`;
}

/** The media of one part: a thumbnail for an image Crier holds, else a box saying what it is. */
function MediaLayout({ media, held }) {
  if (!media.length) return null;
  const shown = media.slice(0, 4);
  const more = media.length - shown.length;
  return html`<ul class=${`preview-media preview-media-${shown.length}`} aria-label=${media.length === 1 ? '1 attachment' : `${media.length} attachments`}>
    ${shown.map((m, i) => {
      const file = held.find((h) => h.filename === m.filename);
      const label = i === shown.length - 1 && more > 0 ? html`<span class="preview-more">+${more} more</span>` : null;
      if (m.kind === 'image' && file?.url) {
        return html`<li class="preview-tile"><img src=${file.url} alt=${file.altText || m.filename} loading="lazy" />${label}</li>`;
      }
      const symbol = m.kind === 'video' ? '▶' : m.kind === 'image' ? '▧' : '?';
      return html`<li class="preview-tile preview-box"><span><span aria-hidden="true">${symbol}</span> ${m.kind === 'other' ? 'file' : m.kind}: ${m.filename}</span>${label}</li>`;
    })}
  </ul>`;
}

function Part({ part, index, count, held }) {
  const over = [part, part.title].some((m) => m && m.limit !== null && m.length > m.limit);
  const heading = count > 1 ? `${ROLE_WORDS[part.role]} ${index + 1} of ${count}` : ROLE_WORDS[part.role];
  return html`<li class=${`preview-part${over ? ' preview-part-over' : ''}`}>
    <p class="preview-role">${heading}</p>
    ${part.title ? html`<p class="preview-title">${part.title.text}</p>` : null}
    ${part.text ? html`<p class="preview-text">${part.text}</p>` : html`<p class="preview-text muted">(no text)</p>`}
    ${part.note ? html`<p class="muted preview-note">${part.note}</p>` : null}
    <${MediaLayout} media=${part.media} held=${held} />
    ${part.title ? html`<${Counter} measured=${part.title} what="Title" />` : null}
    ${part.text || !part.note ? html`<${Counter} measured=${part} what=${part.title ? 'Text' : null} />` : null}
  </li>`;
}

/** One network's card: the accounts it goes to, its parts in order, what it leaves out. */
function NetworkPreview({ network, usernames, preview, containers }) {
  const name = networkName(network);
  return html`<article class="preview-network" aria-label=${`Preview on ${name}`}>
    <h3><${NetworkIcon} network=${network} /> ${name} <span class="muted">${usernames.map((u) => `@${u.replace(/^@/, '')}`).join(', ')}</span></h3>
    <ol class="preview-parts">
      ${preview.parts.map((part, i) => html`<${Part} part=${part} index=${i} count=${preview.parts.length} held=${containers[i]?.media ?? []} />`)}
    </ol>
    ${preview.leftOut ? html`<p class="muted preview-left-out">${name} takes no replies: the last ${preview.leftOut === 1 ? 'part is' : `${preview.leftOut} parts are`} not published there.</p>` : null}
  </article>`;
}

/**
 * The dry run's destinations as one card per network (two accounts of one network get the same post).
 * `containers` are the form's, for the thumbnails of the media uploaded.
 */
export function ComposePreview({ destinations, containers, waiting }) {
  if (!destinations?.length) {
    return waiting ? html`<section class="compose-preview" aria-label="Preview"><h2>Preview</h2><p class="muted">${waiting}</p></section>` : null;
  }
  const byNetwork = new Map();
  for (const d of destinations) {
    const seen = byNetwork.get(d.network);
    if (seen) seen.usernames.push(d.username);
    else byNetwork.set(d.network, { network: d.network, usernames: [d.username], preview: d.preview });
  }
  return html`<section class="compose-preview" aria-label="Preview">
    <h2>Preview</h2>
    <p class="muted">How each network will show the post: its text as the network receives it, counted the network's way.</p>
    <div class="preview-networks">
      ${[...byNetwork.values()].map((n) => html`<${NetworkPreview} key=${n.network} ...${n} containers=${containers} />`)}
    </div>
  </section>`;
}
