// Credentials for the service's requests to itself (fastify's inject, never
// the network): when an erasure is verified, the service asks its own HTTP
// routes what they return. A credential is random, held only in this
// process's memory, bound to one tenant and role, short-lived, and revoked
// as soon as the self-check is over; it is never stored, logged or cached.
import { randomBytes } from 'node:crypto';
import type { ApiPrincipal } from '../../infrastructure/api-keys/api-key-store.js';
import type { ApiRole } from '../../infrastructure/api-keys/roles.js';

const TTL_MS = 60_000;

export class OwnRequestKeys {
  readonly #keys = new Map<string, { principal: ApiPrincipal; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A token for `Authorization: Bearer …` on injected requests, reaching only `namespaces`; revoke it when done. */
  issue(tenant: string, role: ApiRole, purpose: string, namespaces: readonly string[]): string {
    const token = `own_${randomBytes(32).toString('base64url')}`;
    this.#keys.set(token, {
      principal: {
        keyId: `in-process:${purpose}`,
        tenant,
        role,
        namespaces,
        channel: 'service',
        // The service checks itself in the tenant's own world, whichever it is.
        environment: 'production',
        tenantEnvironment: 'production',
      },
      until: this.now() + TTL_MS,
    });
    return token;
  }

  revoke(token: string): void {
    this.#keys.delete(token);
  }

  /** The principal of a live token of this process; undefined for any other token. */
  principalOf(token: string): ApiPrincipal | undefined {
    const entry = this.#keys.get(token);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.principal;
    this.#keys.delete(token);
    return undefined;
  }
}
