import type { Reply } from '../../shared/http.ts';

export interface ThreadsRequest {
  query: Record<string, string | undefined>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
}

export interface ThreadsRoute {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  handler: (req: ThreadsRequest) => Reply | Promise<Reply>;
}
