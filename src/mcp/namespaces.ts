// Which subjects an MCP server may touch: the namespace patterns of the key
// (/mcp) or of `memledger mcp --namespace` (stdio; none given: `*`, the whole
// tenant), judged by the one access rule of every door
// (src/domain/namespace/access.ts).
import { mayAccess } from '../domain/namespace/access.js';
import { requireNamespacePatterns, TENANT_WIDE } from '../domain/namespace/pattern.js';
import type { McpDoor } from './door.js';

/** The stdio flags' patterns; none given is the whole tenant. */
export function requireNamespaces(patterns: readonly string[], field = 'namespace'): string[] {
  const given = requireNamespacePatterns(patterns, field);
  return given.length === 0 ? [TENANT_WIDE] : given;
}

export function isPermittedSubject(door: Pick<McpDoor, 'tenant' | 'namespaces' | 'environments'>, subject: string): boolean {
  const { key, tenant } = door.environments ?? { key: 'production', tenant: 'production' };
  return mayAccess(
    { tenant: door.tenant, namespaces: door.namespaces, environment: key },
    { tenant: door.tenant, environment: tenant, subject },
  );
}
