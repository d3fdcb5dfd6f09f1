// Where each route acts, and the one check of it (issue 19): every route that
// needs a key passes through `enforceAccess` before its handler, which asks
// the domain's single access rule (src/domain/namespace/access.ts). A route
// with `{subject}` in its path acts on that subject; a route on a resource
// that belongs to a subject (an artifact) says how to find the owner; a
// tenant-wide route says so and needs a `*` key. A subject the key may not
// reach answers 404 exactly as one that does not exist; a route that does
// not say where it acts is refused when it is registered.
import { mayAccess, mayAccessTenant, type AccessScope, type TenantRef } from '../../domain/namespace/access.js';
import type { ApiPrincipal } from '../../infrastructure/api-keys/api-key-store.js';
import { problemError, type ProblemError } from '../problem.js';

/** The subject a resource belongs to (it throws the resource's own 404 when there is none). */
export interface OwnedAccess<P = unknown> {
  readonly kind: 'owned';
  readonly subjectOf: (params: P, tenant: string) => Promise<string>;
  /** What a resource of a subject out of reach answers: the same as a missing one. */
  readonly hidden: (params: P) => ProblemError;
}

/**
 * - absent: the route's path has `{subject}`; that subject is checked.
 * - `tenant`: the route acts on the whole tenant (a `*` key only).
 * - owned: the route's resource belongs to a subject found from its params.
 */
export type RouteAccess<P = unknown> = 'tenant' | OwnedAccess<P>;

export function scopeOf(principal: ApiPrincipal): AccessScope {
  return { tenant: principal.tenant, namespaces: principal.namespaces, environment: principal.environment };
}

/** The key's tenant, in the environment it is marked now. */
function tenantOf(principal: ApiPrincipal): TenantRef {
  return { tenant: principal.tenant, environment: principal.tenantEnvironment };
}

export function subjectHidden(subject: string, field = 'subject'): ProblemError {
  return problemError(404, 'subject_not_found', `subject ${subject} does not exist`, { field });
}

/** Throws the 404 of a subject the key may not reach (for subjects a route reads beyond its path's, e.g. recall's shared namespaces). */
export function requireSubjectAccess(principal: ApiPrincipal, subject: string, field = 'subject'): void {
  if (!mayAccess(scopeOf(principal), { ...tenantOf(principal), subject })) throw subjectHidden(subject, field);
}

/** Registration-time: a route with a key must say where it acts. */
export function requireDeclaredAccess(route: { operationId: string; path: string; access?: RouteAccess }): void {
  if (route.access === undefined && !route.path.includes('{subject}'))
    throw new Error(`route ${route.operationId} (${route.path}) has no {subject}: declare access ('tenant' or owned)`);
}

/** Request-time: the one check every keyed route passes before its handler. */
export async function enforceAccess(route: { access?: RouteAccess }, principal: ApiPrincipal, params: unknown): Promise<void> {
  const access = route.access;
  if (access === undefined) return requireSubjectAccess(principal, (params as { subject: string }).subject);
  if (access === 'tenant') {
    if (mayAccessTenant(scopeOf(principal), tenantOf(principal))) return;
    throw problemError(403, 'forbidden', "this key may not act on the whole tenant (needs a key for * of the tenant's environment)", {
      field: 'Authorization',
    });
  }
  const subject = await access.subjectOf(params, principal.tenant);
  if (!mayAccess(scopeOf(principal), { ...tenantOf(principal), subject })) throw access.hidden(params);
}
