// What an API key may claim as source type (issue 17 item 8): trust comes
// from the key, not from the body. human_review only from an admin key;
// keys do not yet record which channel they were made for, so every writing
// key counts as the user's own channel (user_assertion) until they do.
import { roleCeiling, type WriterCredential } from '../../domain/policy/index.js';
import type { ApiRole } from '../../infrastructure/api-keys/roles.js';

/** A role that does not write (reader, auditor) gets a credential that may claim nothing. */
export function credentialOfRole(role: ApiRole): WriterCredential {
  const userChannel = true;
  return { role, userChannel, ceiling: roleCeiling(role, userChannel) ?? 'model_inference' };
}
