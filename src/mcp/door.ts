// What the MCP tools work with, whichever transport carries them: the ledger
// and the read side, whose memory (the tenant, and the namespaces its subjects
// must lie in), what the caller may do, and how the read side catches up with
// the caller's own writes. stdio (stdio.ts) builds one from `memledger mcp`'s
// flags; the service's /mcp route (src/api/mcp-route.ts) from the API key.
import type { ErasureOptions } from '../commands/forget.js';
import type { Ledger } from '../commands/ledger.js';
import type { Environment } from '../domain/namespace/environment.js';
import type { WriterCredential } from '../domain/policy/index.js';
import type { ReadSide } from '../queries/read-side.js';

/** The permissions the tools need (src/api/auth/permissions.ts names the same). */
export type ToolPermission = 'memories:read' | 'memories:write' | 'audit:read';

export interface McpDoor {
  readonly ledger: Ledger;
  readonly read: ReadSide;
  readonly tenant: string;
  /** Namespace patterns (`user:*`, `team:t-1`, `*`: every subject of the tenant); see src/domain/namespace. */
  readonly namespaces: readonly string[];
  /** Who the events name as the actor (`mcp`, `mcp:api-key:<id>`). */
  readonly actor: string;
  /** The key's environment and its tenant's (/mcp); absent: the operator's own process, in the tenant's world. */
  readonly environments?: { readonly key: Environment; readonly tenant: Environment };
  /** What the writer may claim as source type (the key's, on /mcp); absent: the operator's own process (stdio). */
  readonly credential?: WriterCredential;
  may(permission: ToolPermission): boolean;
  /** Resolves once the projections hold every event of these streams (read your own writes). */
  readYourWrites(streams: readonly string[]): Promise<void>;
  /** The erasure's checks and the wait before they run. */
  erasure(streams: readonly string[]): Omit<ErasureOptions, 'reason'>;
}
