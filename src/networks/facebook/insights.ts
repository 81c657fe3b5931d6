// Reading Graph insights (/{object-id}/insights?metric=a,b,c) for facebook and instagram. Meta
// retires metrics often (impressions, plays, page_fans...) and then answers the whole call with
// "(#100) ... must be a valid insights metric"; so when a call naming several metrics is refused as
// invalid, each is asked alone and the refused ones are left out (unknown, never 0).
import { PublishError } from '../../core/errors.ts';
import { node, type GraphApi } from './graph-api.ts';

export interface InsightEntry {
  name: string;
  period?: string;
  values?: { value?: unknown; end_time?: string }[];
  total_value?: { value?: unknown };
}

/** Each metric Graph answered, by name: its entry. */
export type Insights = Map<string, InsightEntry>;

export async function readInsights(api: GraphApi, objectId: string, metrics: readonly string[], params: Record<string, string> = {}): Promise<Insights> {
  try {
    return await ask(api, objectId, metrics, params);
  } catch (error) {
    if (!isRefusedMetric(error) || metrics.length < 2) return refusedToEmpty(error);
  }
  const out: Insights = new Map();
  for (const metric of metrics) {
    try {
      for (const [name, entry] of await ask(api, objectId, [metric], params)) out.set(name, entry);
    } catch (error) {
      if (!isRefusedMetric(error)) throw error;
    }
  }
  return out;
}

async function ask(api: GraphApi, objectId: string, metrics: readonly string[], params: Record<string, string>): Promise<Insights> {
  const body = await api.get<{ data?: InsightEntry[] }>(`${node(objectId)}/insights`, { metric: metrics.join(','), ...params });
  return new Map((body.data ?? []).map((entry) => [entry.name, entry]));
}

/** A metric the object does not have (retired, wrong media type) or too few viewers (#10): no figure. */
function isRefusedMetric(error: unknown): boolean {
  return error instanceof PublishError && (error.code === 'invalid' || error.code === 'forbidden') && /metric|viewers/i.test(error.message);
}

function refusedToEmpty(error: unknown): Insights {
  if (isRefusedMetric(error)) return new Map();
  throw error;
}

/**
 * Insights when the token may read them; a token without the insights permission (read_insights,
 * instagram_manage_insights: connected before Crier asked for it) gives none, with Meta's words on
 * why, so the figures the node gives are still answered.
 */
export async function permittedInsights(read: () => Promise<Insights>): Promise<{ insights: Insights; unavailable?: string }> {
  try {
    return { insights: await read() };
  } catch (error) {
    if (error instanceof PublishError && error.code === 'forbidden') return { insights: new Map(), unavailable: error.message };
    throw error;
  }
}

/** The lifetime value of a metric (its last value), or its total_value; null when absent or not a number. */
export function lastValue(insights: Insights, name: string): number | null {
  const entry = insights.get(name);
  const value = entry?.total_value?.value ?? entry?.values?.at(-1)?.value;
  return typeof value === 'number' ? value : null;
}

/** The sum of a daily metric's values over the period asked; null when Graph gave none. */
export function summed(insights: Insights, name: string): number | null {
  const entry = insights.get(name);
  if (entry?.total_value && typeof entry.total_value.value === 'number') return entry.total_value.value;
  const numbers = (entry?.values ?? []).map((v) => v.value).filter((v): v is number => typeof v === 'number');
  return numbers.length ? numbers.reduce((a, b) => a + b, 0) : null;
}

/** An object value (post_reactions_by_type_total: {like: 3, love: 1}) as given, or undefined. */
export function objectValue(insights: Insights, name: string): unknown {
  const entry = insights.get(name);
  return entry?.total_value?.value ?? entry?.values?.at(-1)?.value;
}

/** [since, until] cut into windows Graph accepts (at most `maxDays` each), oldest first. */
export function windows(since: Date, until: Date, maxDays: number): { since: Date; until: Date }[] {
  const out: { since: Date; until: Date }[] = [];
  const step = maxDays * 86_400_000;
  for (let start = since.getTime(); start < until.getTime(); start += step) out.push({ since: new Date(start), until: new Date(Math.min(start + step, until.getTime())) });
  return out;
}
