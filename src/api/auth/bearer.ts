// `Authorization: Bearer <key>` to a principal (key id, tenant, role). Every
// way a key can be wrong — missing, malformed, unknown, revoked — gets the
// same 401, so probing keys reveals nothing. Lookups are cached briefly
// (revoking a key takes effect within `cacheMs`), so a busy service does not
// query the key table on every request.
import type { ApiPrincipal } from '../../infrastructure/api-keys/api-key-store.js';
import { problemError } from '../problem.js';
import type { OwnRequestKeys } from './own-requests.js';

export interface KeyLookup {
  authenticate(token: string): Promise<ApiPrincipal | undefined>;
}

const MAX_CACHED = 10_000;
const BEARER = /^Bearer[ ]+([\x21-\x7e]{1,512})[ ]*$/i;

export class BearerAuth {
  readonly #cache = new Map<string, { principal: ApiPrincipal | undefined; until: number }>();

  constructor(
    private readonly keys: KeyLookup,
    private readonly cacheMs: number,
    private readonly now: () => number = Date.now,
    /** The service's own short-lived credentials (checked first, never cached: revoking one takes effect at once). */
    private readonly own?: OwnRequestKeys,
  ) {}

  /** The principal of the request's key; throws a 401 problem otherwise. */
  async principalOf(authorization: string | undefined): Promise<ApiPrincipal> {
    if (authorization === undefined || authorization.trim() === '') {
      throw problemError(401, 'unauthenticated', 'an API key is required: Authorization: Bearer <key>', { field: 'Authorization' });
    }
    const token = BEARER.exec(authorization)?.[1];
    const principal = token === undefined ? undefined : await this.#lookup(token);
    if (!principal) throw problemError(401, 'unauthenticated', 'the API key is not valid', { field: 'Authorization' });
    return principal;
  }

  async #lookup(token: string): Promise<ApiPrincipal | undefined> {
    const own = this.own?.principalOf(token);
    if (own) return own;
    if (this.cacheMs <= 0) return this.keys.authenticate(token);
    const now = this.now();
    const cached = this.#cache.get(token);
    if (cached && cached.until > now) return cached.principal;
    const principal = await this.keys.authenticate(token);
    if (this.#cache.size >= MAX_CACHED) this.#cache.clear();
    this.#cache.set(token, { principal, until: now + this.cacheMs });
    return principal;
  }
}
