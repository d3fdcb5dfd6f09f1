// The roles an API key can carry. What each may do is the API's business
// (src/api/auth/permissions.ts); the key store only records which one.
export const API_ROLES = ['writer', 'reader', 'auditor', 'reviewer', 'admin'] as const;
export type ApiRole = (typeof API_ROLES)[number];

export function isApiRole(value: unknown): value is ApiRole {
  return typeof value === 'string' && (API_ROLES as readonly string[]).includes(value);
}
