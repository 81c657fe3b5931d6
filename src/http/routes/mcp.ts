// POST /mcp: the MCP server over Streamable HTTP, stateless (one server per request; no session to
// keep between requests or share between processes). Registered with the /v1 routes, so the API key,
// request limits and subscription gate apply to it as to every route; its tools call the API
// in-process with the caller's own key, so each call is authenticated and org-scoped again.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { lazy } from '../../lazy.ts';
import { parseBody, urlOf, type ApiCaller } from '../../mcp/api.ts';
import type { Tool } from '../../mcp/tools.ts';
import type { AppContext } from '../context.ts';

// The SDK is loaded by the first MCP request, never at start (src/lazy.ts).
const loadMcp = lazy('the MCP SDK (@modelcontextprotocol/sdk, for POST /mcp)', async () => {
  const [server, transport] = await Promise.all([import('../../mcp/server.ts'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]);
  return { ...server, StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport };
});

export function mcpRoutes(app: FastifyInstance, _ctx: AppContext): void {
  // The tool list comes from the OpenAPI document, the same for every caller: built once.
  let tools: (() => Promise<Tool[]>) | undefined;

  app.post('/mcp', {
    schema: {
      summary: 'MCP server (Streamable HTTP, stateless)',
      description: 'JSON-RPC messages of the Model Context Protocol. Its tools call this API with the same API key.',
      tags: ['mcp'],
    },
    handler: async (request, reply) => {
      const mcp = await loadMcp();
      const call = injectCaller(app, request);
      tools ??= mcp.toolSource(injectCaller(app, request, false));
      const server = mcp.createMcpServer(call, tools);
      const transport = new mcp.StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.raw.on('close', () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      reply.hijack();
      reply.raw.setHeader('x-request-id', request.id);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });

  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  const notAllowed = async (_request: FastifyRequest, reply: import('fastify').FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({ success: false, error: 'This MCP endpoint is stateless: only POST is supported', code: 'method_not_allowed' });
  app.get('/mcp', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed);
}

/** Calls this app's own routes with the MCP request's API key (`withKey` false: a public route). */
function injectCaller(app: FastifyInstance, request: FastifyRequest, withKey = true): ApiCaller {
  const authorization = request.headers.authorization;
  return async ({ method, path, query, body }) => {
    const headers: Record<string, string> = { 'x-request-id': request.id };
    if (withKey && authorization) headers.authorization = authorization;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await app.inject({ method, url: urlOf(path, query), headers, payload: body === undefined ? undefined : JSON.stringify(body), remoteAddress: request.ip });
    return { status: response.statusCode, body: parseBody(response.body) };
  };
}
