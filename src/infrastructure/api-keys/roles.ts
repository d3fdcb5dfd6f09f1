// The roles an API key can carry. What each may do is the API's business
// (src/api/auth/permissions.ts); the key store only records which one.
export const API_ROLES = ['writer', 'reader', 'auditor', 'reviewer', 'admin'] as const;
export type ApiRole = (typeof API_ROLES)[number];

/** What a key was made for: the user's own channel (its writes are the user speaking) or any other service. */
export const KEY_CHANNELS = ['user', 'service'] as const;
export type KeyChannel = (typeof KEY_CHANNELS)[number];

export { ENVIRONMENTS, isEnvironment, type Environment } from '../../domain/namespace/environment.js';

/** Only roles that record may be made for the user's channel. */
export const USER_CHANNEL_ROLES: readonly ApiRole[] = ['writer', 'admin'];

export function isKeyChannel(value: unknown): value is KeyChannel {
  return typeof value === 'string' && (KEY_CHANNELS as readonly string[]).includes(value);
}

export function isApiRole(value: unknown): value is ApiRole {
  return typeof value === 'string' && (API_ROLES as readonly string[]).includes(value);
}
