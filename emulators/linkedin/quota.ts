// LinkedIn's rate limits (learn.microsoft.com …/api-guide/concepts/rate-limits): per endpoint, a
// daily quota for the whole app and one per member per app, both resetting at midnight UTC. The
// real numbers are unpublished (the Developer Portal shows them); the defaults here are generous
// and tests lower them with setDailyQuota().

export interface DailyQuota {
  /** Calls one member may make through one app per UTC day. */
  member: number;
  /** Calls one app may make per UTC day, all members together. */
  app: number;
}

export const DEFAULT_DAILY_QUOTA: Readonly<DailyQuota> = { member: 100_000, app: 1_000_000 };

export class DailyQuotas {
  #defaults: DailyQuota = { ...DEFAULT_DAILY_QUOTA };
  #perEndpoint = new Map<string, DailyQuota>();
  #used = new Map<string, number>();

  /** Sets the quota of one endpoint ('POST /rest/posts', as routes are declared) or, with '*', of all. */
  set(endpoint: string, quota: Partial<DailyQuota>): void {
    if (endpoint === '*') this.#defaults = { ...this.#defaults, ...quota };
    else this.#perEndpoint.set(endpoint, { ...(this.#perEndpoint.get(endpoint) ?? this.#defaults), ...quota });
  }

  /** Counts a call; false when the member's or the app's quota for the day is already spent. */
  spend(endpoint: string, clientId: string, sub: string, now: number): boolean {
    const day = new Date(now).toISOString().slice(0, 10);
    const quota = this.#perEndpoint.get(endpoint) ?? this.#defaults;
    const appKey = `${day} ${endpoint} app ${clientId}`;
    const memberKey = `${day} ${endpoint} member ${clientId} ${sub}`;
    const appUsed = this.#used.get(appKey) ?? 0;
    const memberUsed = this.#used.get(memberKey) ?? 0;
    if (appUsed >= quota.app || memberUsed >= quota.member) return false;
    this.#used.set(appKey, appUsed + 1);
    this.#used.set(memberKey, memberUsed + 1);
    return true;
  }
}
