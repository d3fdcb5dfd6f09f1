// The one rule of who may touch what (issue 19, seed 003: Identity -> Allowed
// Namespaces -> ...): a caller's scope — the tenant and namespace patterns of
// its key — reaches a subject when the tenant is the key's and one pattern
// matches the subject id. Every route, MCP tool and self-check asks here; a
// subject outside the scope answers exactly as one that does not exist.
import { isTenantWide, matchesPattern } from './pattern.js';

export interface AccessScope {
  readonly tenant: string;
  /** Namespace patterns (pattern.ts); `*` is the whole tenant. */
  readonly namespaces: readonly string[];
}

export interface SubjectRef {
  readonly tenant: string;
  readonly subject: string;
}

export function mayAccess(scope: AccessScope, target: SubjectRef): boolean {
  return scope.tenant === target.tenant && scope.namespaces.some((pattern) => matchesPattern(pattern, target.subject));
}

/** Tenant-wide operations (forget a source ref everywhere, re-index every subject, the write policy) need a `*` key. */
export function mayAccessTenant(scope: AccessScope, tenant: string): boolean {
  return scope.tenant === tenant && isTenantWide(scope.namespaces);
}
