// POST /mcp: the MCP server over Streamable HTTP, stateless (one server per request; no session to
// keep between requests or share between processes), answering JSON rather than an event stream. Registered with the /v1 routes, so the API key,
// request limits and subscription gate apply to it as to every route; its tools call the API
// in-process with the caller's own key, so each call is authenticated and org-scoped again.
// It is also an OAuth protected resource (src/oauth/): the caller's bearer may be an access token,
// which its tool calls forward with this process's mark (http/auth.ts takes it nowhere else).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { lazy } from '../../lazy.ts';
import { parseBody, urlOf, type ApiCaller } from '../../mcp/api.ts';
import type { Tool } from '../../mcp/tools.ts';
import { oauthUrls } from '../../oauth/metadata.ts';
import { MCP_FORWARD_HEADER, MCP_FORWARD_MARK } from '../auth.ts';
import type { AppContext } from '../context.ts';

// The SDK is loaded by the first MCP request, never at start (src/lazy.ts).
const loadMcp = lazy('the MCP SDK (@modelcontextprotocol/sdk, for POST /mcp)', async () => {
  // The web-standard transport: Fastify keeps the reply (its headers, hooks and logs), no request hijack.
  const [server, transport] = await Promise.all([import('../../mcp/server.ts'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]);
  return { ...server, Transport: transport.WebStandardStreamableHTTPServerTransport };
});

export function mcpRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The tool list comes from the OpenAPI document, the same for every caller: built once.
  let tools: (() => Promise<Tool[]>) | undefined;
  // Its 401s name where an OAuth client starts (RFC 9728), and it accepts access tokens (http/auth.ts).
  const config = { oauthResourceMetadata: oauthUrls(ctx.config.publicBaseUrl).resourceMetadata };

  app.post('/mcp', {
    config,
    schema: {
      operationId: 'mcp',
      summary: 'MCP server (Streamable HTTP, stateless)',
      description: 'JSON-RPC messages of the Model Context Protocol. Its tools call this API with the same API key.',
      tags: ['mcp'],
    },
    handler: async (request, reply) => {
      const mcp = await loadMcp();
      const call = injectCaller(app, { authorization: request.headers.authorization, requestId: request.id, ip: request.ip });
      tools ??= mcp.toolSource(injectCaller(app, {}));
      const server = mcp.createMcpServer(call, tools);
      const transport = new mcp.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        const answer = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
        reply.code(answer.status);
        answer.headers.forEach((value, name) => void reply.header(name, value));
        return reply.send(answer.body ? Buffer.from(await answer.arrayBuffer()) : undefined);
      } finally {
        await server.close();
      }
    },
  });

  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({ success: false, error: 'This MCP endpoint is stateless: only POST is supported', code: 'method_not_allowed' });
  app.get('/mcp', { schema: { hide: true }, config }, notAllowed);
  app.delete('/mcp', { schema: { hide: true }, config }, notAllowed);
}

/** The request as the transport reads it: its headers (Accept, protocol version); the body is given parsed. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  return new Request(new URL(request.url, 'http://crier.invalid'), { method: request.method, headers });
}

interface Caller {
  /** The MCP request's own Authorization header; none for the public OpenAPI document. */
  authorization?: string;
  requestId?: string;
  ip?: string;
}

/** Calls this app's own routes as `caller`: the API authenticates, limits and scopes each call itself. */
function injectCaller(app: FastifyInstance, caller: Caller): ApiCaller {
  return async ({ method, path, query, body, headers: extra }) => {
    const headers: Record<string, string> = { ...extra };
    if (caller.authorization) headers.authorization = caller.authorization;
    if (caller.authorization) headers[MCP_FORWARD_HEADER] = MCP_FORWARD_MARK;
    if (caller.requestId) headers['x-request-id'] = caller.requestId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const response = await app.inject({ method, url: urlOf(path, query), headers, payload, ...(caller.ip ? { remoteAddress: caller.ip } : {}) });
    return { status: response.statusCode, body: parseBody(response.body) };
  };
}
