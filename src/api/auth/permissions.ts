// What each role of an API key may do. The tenant always comes from the key;
// a role only narrows what the key may do inside its tenant.
//
//   reader   recall, open conflicts, an artifact's status and assessment
//   writer   reader's, plus record, import, supersede, retract, resolve,
//            expire, forget one memory, prepare/run/publish consolidations
//   auditor  reader's, plus the audit reads: as-of, replay, events, stale,
//            lineage (and nothing that writes)
//   reviewer reader's, plus the candidates the write gate held: list,
//            accept, reject (never keys or the write policy)
//   admin    everything: also trust and taint policy, forgetting a whole
//            subject, approving shadow-mode artifacts, re-indexing vectors
import type { ApiRole } from '../../infrastructure/api-keys/roles.js';

export const PERMISSIONS = [
  'memories:read',
  'memories:write',
  'audit:read',
  'consolidation:run',
  'consolidation:approve',
  'policy:write',
  'candidates:review',
  'subjects:forget',
  'retrieval:reindex',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Readonly<Record<ApiRole, readonly Permission[]>> = {
  reader: ['memories:read'],
  writer: ['memories:read', 'memories:write', 'consolidation:run'],
  auditor: ['memories:read', 'audit:read'],
  reviewer: ['memories:read', 'candidates:review'],
  admin: PERMISSIONS,
};

export function mayDo(role: ApiRole, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

/** The roles holding a permission, for the OpenAPI document and error details. */
export function rolesWith(permission: Permission): ApiRole[] {
  return (Object.keys(GRANTS) as ApiRole[]).filter((role) => mayDo(role, permission));
}
