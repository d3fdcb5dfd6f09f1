// The one rule of who may touch what (issue 19, seed 003: Identity -> Allowed
// Namespaces -> ...): a caller's scope — the tenant, namespace patterns and
// environment of its key — reaches a subject when the tenant is the key's,
// the tenant's environment is the key's, and one pattern matches the subject
// id. Every route, MCP tool and self-check asks here; a
// subject outside the scope answers exactly as one that does not exist.
import type { Environment } from './environment.js';
import { isTenantWide, matchesPattern } from './pattern.js';

export interface AccessScope {
  readonly tenant: string;
  /** Namespace patterns (pattern.ts); `*` is the whole tenant. */
  readonly namespaces: readonly string[];
  readonly environment: Environment;
}

/** A tenant as the rule sees it: its id and its environment. */
export interface TenantRef {
  readonly tenant: string;
  readonly environment: Environment;
}

export interface SubjectRef extends TenantRef {
  readonly subject: string;
}

export function mayAccess(scope: AccessScope, target: SubjectRef): boolean {
  return sameWorld(scope, target) && scope.namespaces.some((pattern) => matchesPattern(pattern, target.subject));
}

/** Tenant-wide operations (forget a source ref everywhere, re-index every subject, the write policy) need a `*` key. */
export function mayAccessTenant(scope: AccessScope, target: TenantRef): boolean {
  return sameWorld(scope, target) && isTenantWide(scope.namespaces);
}

function sameWorld(scope: AccessScope, target: TenantRef): boolean {
  return scope.tenant === target.tenant && scope.environment === target.environment;
}
