// API keys in PostgreSQL (table api_keys, migration 0004): made, listed,
// revoked and checked. The key text is returned once, by create; the table
// holds only its digest.
import pg from 'pg';
import { Pool } from '../postgres/pool.js';
import { requireNamespacePatterns, TENANT_WIDE } from '../../domain/namespace/pattern.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import { digestMatches, digestOf, keyIdOf, newKeyToken } from './key-token.js';
import {
  ENVIRONMENTS,
  isApiRole,
  isEnvironment,
  isKeyChannel,
  KEY_CHANNELS,
  USER_CHANNEL_ROLES,
  type ApiRole,
  type Environment,
  type KeyChannel,
  API_ROLES,
} from './roles.js';

export interface ApiKeyInfo {
  readonly keyId: string;
  readonly tenant: string;
  readonly role: ApiRole;
  /** The namespace patterns the key may act on (`*`: the whole tenant). */
  readonly namespaces: readonly string[];
  readonly channel: KeyChannel;
  readonly environment: Environment;
  readonly label: string | null;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** What create returns: the only time the key text exists outside the caller. */
export interface CreatedApiKey extends ApiKeyInfo {
  readonly key: string;
}

/** Who a presented key speaks for: the tenant, what it may do and where (the service takes identity from the key alone). */
export interface ApiPrincipal {
  readonly keyId: string;
  readonly tenant: string;
  readonly role: ApiRole;
  readonly namespaces: readonly string[];
  /** `user`: made for the user's own channel, the only key whose writes may claim user_assertion. */
  readonly channel: KeyChannel;
  readonly environment: Environment;
  /** The environment of the key's tenant now (a key reaches its tenant only when the two agree). */
  readonly tenantEnvironment: Environment;
}

interface Row {
  key_id: string;
  tenant: string;
  role: string;
  namespaces: string[];
  channel: string;
  environment: string;
  tenant_environment?: string;
  key_sha256: Buffer;
  label: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

const MAX_LABEL = 200;

export class ApiKeyStore {
  readonly #pool: pg.Pool;

  constructor(connectionString: string, options: { readonly poolSize?: number } = {}) {
    this.#pool = new Pool({ connectionString, max: options.poolSize ?? 4, application_name: 'memledger-api-keys' });
  }

  async create(input: {
    readonly tenant: string;
    readonly role: string;
    /** Absent or empty: the whole tenant (`*`). */
    readonly namespaces?: readonly string[];
    /** Default `service`. */
    readonly channel?: string;
    /** Default: the tenant's; a key of another environment than its tenant's is refused. */
    readonly environment?: string;
    readonly label?: string;
    readonly now: Date;
  }): Promise<CreatedApiKey> {
    const tenant = requireId('tenant', input.tenant);
    if (!isApiRole(input.role)) throw new InvalidInput('role', `must be one of ${API_ROLES.join(', ')}`);
    const given = requireNamespacePatterns(input.namespaces ?? []);
    const namespaces = given.length === 0 ? [TENANT_WIDE] : [...new Set(given)];
    const channel = input.channel ?? 'service';
    if (!isKeyChannel(channel)) throw new InvalidInput('channel', `must be one of ${KEY_CHANNELS.join(', ')}`);
    if (channel === 'user' && !USER_CHANNEL_ROLES.includes(input.role))
      throw new InvalidInput('channel', `only a ${USER_CHANNEL_ROLES.join(' or ')} key may be made for the user's channel`);
    const label = input.label === undefined ? null : input.label.trim();
    if (label !== null && (label === '' || label.length > MAX_LABEL)) throw new InvalidInput('label', `must be 1-${MAX_LABEL} characters`);
    const tenantEnvironment = await this.tenantEnvironment(tenant);
    const environment = input.environment ?? tenantEnvironment;
    if (!isEnvironment(environment)) throw new InvalidInput('environment', `must be one of ${ENVIRONMENTS.join(', ')}`);
    if (environment !== tenantEnvironment)
      throw new InvalidInput('environment', `tenant ${tenant} is ${tenantEnvironment}: a ${environment} key may never reach it`);
    const { keyId, token } = newKeyToken();
    const { rows } = await this.#pool.query<Row>(
      'INSERT INTO api_keys (key_id, tenant, role, namespaces, channel, environment, key_sha256, label, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *',
      [keyId, tenant, input.role, namespaces, channel, environment, digestOf(token), label, input.now.toISOString()],
    );
    return { ...infoOf(rows[0]!), key: token };
  }

  async list(filter: { readonly tenant?: string } = {}): Promise<ApiKeyInfo[]> {
    const tenant = filter.tenant === undefined ? undefined : requireId('tenant', filter.tenant);
    const { rows } = await this.#pool.query<Row>(
      tenant === undefined
        ? 'SELECT * FROM api_keys ORDER BY created_at, key_id'
        : 'SELECT * FROM api_keys WHERE tenant = $1 ORDER BY created_at, key_id',
      tenant === undefined ? [] : [tenant],
    );
    return rows.map(infoOf);
  }

  /** Revokes a key (revoking twice keeps the first time); unknown ids throw InvalidInput naming `key-id`. */
  async revoke(keyIdInput: string, now: Date): Promise<ApiKeyInfo> {
    const keyId = typeof keyIdInput === 'string' ? keyIdInput.trim() : '';
    const { rows } = await this.#pool.query<Row>(
      'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE key_id = $1 RETURNING *',
      [keyId, now.toISOString()],
    );
    if (rows.length === 0) throw new InvalidInput('key-id', 'no API key has this id');
    return infoOf(rows[0]!);
  }

  /** The principal of a live key, or undefined for a malformed, unknown, revoked or wrong key (one answer, so nothing is revealed). */
  async authenticate(token: string): Promise<ApiPrincipal | undefined> {
    const keyId = keyIdOf(token);
    if (keyId === undefined) return undefined;
    const { rows } = await this.#pool.query<Row>(
      `SELECT k.*, COALESCE(t.environment, 'production') AS tenant_environment
         FROM api_keys k LEFT JOIN tenant_environments t ON t.tenant = k.tenant WHERE k.key_id = $1`,
      [keyId],
    );
    const row = rows[0];
    if (!row || row.revoked_at !== null || !digestMatches(token, row.key_sha256) || !isApiRole(row.role)) return undefined;
    if (!isKeyChannel(row.channel) || !isEnvironment(row.environment) || !isEnvironment(row.tenant_environment)) return undefined;
    const { channel, environment, tenant_environment: tenantEnvironment } = row;
    return { keyId: row.key_id, tenant: row.tenant, role: row.role, namespaces: row.namespaces, channel, environment, tenantEnvironment };
  }

  /** A tenant not marked is production. */
  async tenantEnvironment(tenant: string): Promise<Environment> {
    const { rows } = await this.#pool.query<{ environment: string }>('SELECT environment FROM tenant_environments WHERE tenant = $1', [
      requireId('tenant', tenant),
    ]);
    const marked = rows[0]?.environment;
    return isEnvironment(marked) ? marked : 'production';
  }

  /** Marks a tenant test or production; its keys of the other environment reach nothing from then on. */
  async markTenant(tenantInput: string, environment: string, now: Date): Promise<{ tenant: string; environment: Environment }> {
    const tenant = requireId('tenant', tenantInput);
    if (!isEnvironment(environment)) throw new InvalidInput('environment', `must be one of ${ENVIRONMENTS.join(', ')}`);
    await this.#pool.query(
      `INSERT INTO tenant_environments (tenant, environment, marked_at) VALUES ($1, $2, $3)
       ON CONFLICT (tenant) DO UPDATE SET environment = EXCLUDED.environment, marked_at = EXCLUDED.marked_at`,
      [tenant, environment, now.toISOString()],
    );
    return { tenant, environment };
  }

  close(): Promise<void> {
    return this.#pool.end();
  }
}

function infoOf(row: Row): ApiKeyInfo {
  return {
    keyId: row.key_id,
    tenant: row.tenant,
    role: row.role as ApiRole,
    namespaces: row.namespaces,
    channel: row.channel as KeyChannel,
    environment: row.environment as Environment,
    label: row.label,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null,
  };
}
