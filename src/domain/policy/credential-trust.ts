// Trust comes from the credential, not from the body (issue 17 item 8). A
// writer's key carries the highest source type it may claim (its ceiling),
// and two types need more than a high enough ceiling:
//   - human_review only from a reviewer or admin key;
//   - user_assertion only from a key made for the user's own channel (an
//     admin speaking is not the user speaking).
// A claim the key may not make is refused, or, when the tenant's policy
// says so, lowered to the highest type below it that the key may claim.
import { SOURCE_TYPES, trustRank, type SourceType } from '../entry/source.js';

export const CREDENTIAL_ROLES = ['writer', 'reviewer', 'admin', 'reader', 'auditor'] as const;
export type CredentialRole = (typeof CREDENTIAL_ROLES)[number];

export interface WriterCredential {
  readonly role: CredentialRole;
  /** Made for the user's own channel (the user's app or chat), so what it sends is the user speaking. */
  readonly userChannel: boolean;
  /** The highest source type this key may claim. */
  readonly ceiling: SourceType;
}

export type OverClaim = 'refuse' | 'lower';

export type ClaimBound =
  | { readonly outcome: 'granted'; readonly granted: SourceType }
  | { readonly outcome: 'lowered'; readonly claimed: SourceType; readonly granted: SourceType }
  | { readonly outcome: 'refused'; readonly claimed: SourceType; readonly ceiling: SourceType };

/** The most a key of this role and channel may be made to claim; undefined: the role does not write. */
export function roleCeiling(role: CredentialRole, userChannel: boolean): SourceType | undefined {
  switch (role) {
    case 'reviewer':
    case 'admin':
      return 'human_review';
    case 'writer':
      return userChannel ? 'user_assertion' : 'verified_tool_fact';
    case 'reader':
    case 'auditor':
      return undefined;
    default: {
      const never: never = role;
      throw new TypeError(`unknown role ${String(never)}`);
    }
  }
}

/** Whether a key may be made with this ceiling (the check `keys create` runs). */
export function ceilingAllowed(role: CredentialRole, userChannel: boolean, ceiling: SourceType): boolean {
  const most = roleCeiling(role, userChannel);
  return most !== undefined && trustRank(ceiling) <= trustRank(most);
}

export function mayClaim(credential: WriterCredential, type: SourceType): boolean {
  if (!ceilingAllowed(credential.role, credential.userChannel, credential.ceiling)) return false;
  if (trustRank(type) > trustRank(credential.ceiling)) return false;
  if (type === 'human_review') return credential.role === 'reviewer' || credential.role === 'admin';
  if (type === 'user_assertion') return credential.userChannel;
  return true;
}

export function boundClaim(credential: WriterCredential, claimed: SourceType, overClaim: OverClaim): ClaimBound {
  if (mayClaim(credential, claimed)) return { outcome: 'granted', granted: claimed };
  const lower = SOURCE_TYPES.find((t) => trustRank(t) < trustRank(claimed) && mayClaim(credential, t));
  if (overClaim === 'lower' && lower !== undefined) return { outcome: 'lowered', claimed, granted: lower };
  return { outcome: 'refused', claimed, ceiling: credential.ceiling };
}
