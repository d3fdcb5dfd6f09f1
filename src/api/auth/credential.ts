// What an API key may claim as source type (issue 17 item 8): trust comes
// from the key, not from the body. human_review only from a reviewer or
// admin key; user_assertion only from a key made for the user's own channel
// (`keys create --channel user`).
import { roleCeiling, type WriterCredential } from '../../domain/policy/index.js';
import type { ApiPrincipal } from '../../infrastructure/api-keys/api-key-store.js';

/** A role that does not write (reader, auditor) gets a credential that may claim nothing. */
export function credentialOf(principal: Pick<ApiPrincipal, 'role' | 'channel'>): WriterCredential {
  const userChannel = principal.channel === 'user';
  const { role } = principal;
  return { role, userChannel, ceiling: roleCeiling(role, userChannel) ?? 'model_inference' };
}
