// MCP over Streamable HTTP at /mcp (issue 21): the same tools as
// `memledger mcp`, for the tenant and namespaces of the request's API key and
// within what its role may do. Stateless: each POST is one exchange answered as JSON (no
// session, no server-initiated stream), so any worker may answer it.
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import type { ErasureCheck } from '../reads/erasure/verification.js';
import { createMcpServer } from '../mcp/server.js';
import { PACKAGE_VERSION } from '../mcp/version.js';
import { readSideErasureChecks } from '../queries/erasure/index.js';
import type { BearerAuth } from './auth/bearer.js';
import { credentialOf } from './auth/credential.js';
import { mayDo } from './auth/permissions.js';
import { problemError } from './problem.js';
import type { ApiServices } from './services.js';

export const MCP_PATH = '/mcp';

export function registerMcp(
  app: FastifyInstance,
  services: ApiServices,
  deps: { readonly auth: BearerAuth; readonly erasureChecks: () => ErasureCheck[] },
): void {
  app.post(MCP_PATH, async (request, reply) => {
    // Before the exchange is handed over: a missing or bad key is the API's problem+json 401.
    const principal = await deps.auth.principalOf(request.headers.authorization);
    const mcp = createMcpServer(
      {
        ledger: services.ledger,
        read: services.read,
        tenant: principal.tenant,
        namespaces: principal.namespaces,
        actor: `mcp:api-key:${principal.keyId}`,
        credential: credentialOf(principal),
        environments: { key: principal.environment, tenant: principal.tenantEnvironment },
        may: (permission) => mayDo(principal.role, permission),
        readYourWrites: () => services.readYourWrites(),
        erasure: () => ({
          checks: [...readSideErasureChecks(services.read), ...deps.erasureChecks()],
          beforeVerify: services.readYourWrites,
        }),
      },
      { version: PACKAGE_VERSION, onUnexpected: (error, tool) => request.log.error({ err: error, tool }, 'mcp tool failed') },
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => void mcp.close().catch(() => undefined));
    await mcp.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  const stateless = (_request: unknown, reply: { header(name: string, value: string): unknown }) => {
    reply.header('allow', 'POST');
    return Promise.reject(problemError(405, 'method_not_allowed', 'this MCP endpoint is stateless: POST each request'));
  };
  app.get(MCP_PATH, stateless);
  app.delete(MCP_PATH, stateless);
}
