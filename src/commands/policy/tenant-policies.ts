// A tenant's versioned policy document as the CLI and the routes meet it: the
// write policy (WritePolicies) and the lifecycle policy (LifecyclePolicies).
import type { Result } from '../../domain/result/result.js';

export interface TenantPolicies<View> {
  /** The version in force, or the built-in default (version 0). */
  show(tenant: string): Promise<View>;
  /** Validates first (InvalidInput naming `policy.…`: nothing appended), then appends the next version. */
  set(tenant: string, document: unknown, actor?: string): Promise<Result<View>>;
}
