// Tenants' retention rules in the app's PostgreSQL (table: see the retention
// policies migration). Read fresh at every sweep: a changed rule applies at
// the next sweep, to entries recorded before it too.
import pg from 'pg';
import { Pool } from '../postgres/pool.js';
import { requireId } from '../../domain/values/ids.js';
import { ANY, type RetentionRule } from '../../domain/retention/policy.js';
import type { MemoryKind, Sensitivity } from '../../domain/entry/vocabulary.js';

export interface RetentionPolicies {
  rules(tenant: string): Promise<RetentionRule[]>;
  /** Tenants that have rules (what a service-wide sweeper visits). */
  tenants(): Promise<string[]>;
  /** Adds or replaces the rule for (kind, sensitivity). */
  put(tenant: string, rule: RetentionRule, actor?: string): Promise<void>;
  /** True when there was such a rule. */
  remove(tenant: string, kind: RetentionRule['kind'], sensitivity: RetentionRule['sensitivity']): Promise<boolean>;
  close(): Promise<void>;
}

interface Row {
  kind: string;
  sensitivity: string;
  ttl_seconds: string | null;
  archive_seconds: string | null;
}

export class PostgresRetentionPolicies implements RetentionPolicies {
  private readonly pool: pg.Pool;

  constructor(connectionString: string) {
    this.pool = new Pool({ connectionString, max: 2, application_name: 'memledger-retention' });
  }

  async rules(tenant: string): Promise<RetentionRule[]> {
    const result = await this.pool.query<Row>(
      'SELECT kind, sensitivity, ttl_seconds, archive_seconds FROM retention_policies WHERE tenant = $1 ORDER BY kind, sensitivity',
      [requireId('tenant', tenant)],
    );
    return result.rows.map((row) => ({
      kind: row.kind as MemoryKind | typeof ANY,
      sensitivity: row.sensitivity as Sensitivity | typeof ANY,
      ttlSeconds: row.ttl_seconds === null ? null : Number(row.ttl_seconds),
      archiveSeconds: row.archive_seconds === null ? null : Number(row.archive_seconds),
    }));
  }

  async tenants(): Promise<string[]> {
    const result = await this.pool.query<{ tenant: string }>('SELECT DISTINCT tenant FROM retention_policies ORDER BY tenant');
    return result.rows.map((row) => row.tenant);
  }

  async put(tenant: string, rule: RetentionRule, actor?: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO retention_policies (tenant, kind, sensitivity, ttl_seconds, archive_seconds, updated_at, updated_by)
       VALUES ($1, $2, $3, $4, $5, now(), $6)
       ON CONFLICT (tenant, kind, sensitivity) DO UPDATE
       SET ttl_seconds = excluded.ttl_seconds, archive_seconds = excluded.archive_seconds, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      [requireId('tenant', tenant), rule.kind, rule.sensitivity, rule.ttlSeconds, rule.archiveSeconds, actor ?? null],
    );
  }

  async remove(tenant: string, kind: RetentionRule['kind'], sensitivity: RetentionRule['sensitivity']): Promise<boolean> {
    const result = await this.pool.query('DELETE FROM retention_policies WHERE tenant = $1 AND kind = $2 AND sensitivity = $3', [
      requireId('tenant', tenant),
      kind,
      sensitivity,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
