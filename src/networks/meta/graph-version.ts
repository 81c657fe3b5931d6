// The version of Meta's Graph API that Facebook and Instagram call, in one place: both networks'
// clients, OAuth dialogs and token exchanges build their URLs with it.
import type { ApiVersion } from '../contract.ts';

export const GRAPH_VERSION = 'v23.0';

export const GRAPH_API_VERSION: ApiVersion = {
  carrier: 'Graph API path (graph.facebook.com/<version>/…)',
  version: GRAPH_VERSION,
  sunset: '2027-10-08',
  source: 'https://developers.facebook.com/docs/graph-api/changelog (Available Graph API Versions, updated 2026-10-29: v23.0 introduced 2025-05-29, available until 2027-10-08)',
};
