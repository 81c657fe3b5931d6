// `crier mcp`: an MCP server on stdin/stdout for an agent on the user's machine. It calls a Crier over
// HTTP (CRIER_URL, CRIER_API_KEY) rather than opening the database itself: the agent's machine needs
// no database access or secret key, any Crier (local or remote) can be driven, and every tool call is
// authenticated, scoped and validated by the API exactly as any other client's.
import { OperatorError } from '../core/errors.ts';
import { httpCaller } from './api.ts';

export async function runMcpStdio(env: Record<string, string | undefined> = process.env): Promise<number> {
  const baseUrl = env.CRIER_URL?.trim();
  const apiKey = env.CRIER_API_KEY?.trim();
  if (!baseUrl || !apiKey) {
    throw new OperatorError('crier mcp needs CRIER_URL (the Crier to call, such as http://localhost:3000) and CRIER_API_KEY (an API key of the organization to act for)');
  }
  if (!URL.canParse(baseUrl)) throw new OperatorError(`CRIER_URL is not a URL: "${baseUrl}"`);
  // Loaded here, not at the top: the SDK is for this command only (src/lazy.ts).
  const [{ createMcpServer, toolSource }, { StdioServerTransport }] = await Promise.all([
    import('./server.ts'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const call = httpCaller(baseUrl, apiKey);
  const server = createMcpServer(call, toolSource(call));
  // stdout carries the protocol; the agent closing stdin ends the session.
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
  return 0;
}
