// How client commands print: aligned tables for people, the API's JSON for scripts (--json).

/** Rows under a header, each column as wide as its widest cell; the last column is not padded. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export const printJson = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');

export const print = (text: string) => process.stdout.write(text + '\n');

/** One line of a text, cut to `max` characters: a table cell. */
export function excerpt(text: string | null | undefined, max = 40): string {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `@name`, as people write a handle (some networks' usernames carry the @ already). */
export const handle = (username: string) => (username.startsWith('@') ? username : `@${username}`);

/** A time as people read it in a table: local-independent, to the second. */
export const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : '-');
