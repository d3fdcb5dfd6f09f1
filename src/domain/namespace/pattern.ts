// Namespace patterns, as an API key or `memledger mcp --namespace` carries
// them: `*` (every subject of the tenant), a subject id (`user:u-7`), or a
// prefix ending in `*` (`team:*`, `user:u-7*`). A key with no pattern reaches
// nothing; tenant-wide keys made before namespaces carry `*`.
import { z } from 'zod';
import { InvalidInput } from '../validation/invalid-input.js';

const PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}\*?$|^\*$/;
const RULE = 'must be *, a subject id, or a prefix ending in * (e.g. team:*)';

export const TENANT_WIDE = '*';

export const namespacePatternSchema = z.string({ error: RULE }).regex(PATTERN, { error: RULE });

/** Validates patterns, naming `field` (and the pattern) on the first bad one. */
export function requireNamespacePatterns(patterns: readonly unknown[], field = 'namespace'): string[] {
  return patterns.map((pattern) => {
    const parsed = namespacePatternSchema.safeParse(pattern);
    if (!parsed.success) throw new InvalidInput(field, `${RULE} (got ${JSON.stringify(pattern)})`);
    return parsed.data;
  });
}

export function matchesPattern(pattern: string, subject: string): boolean {
  return pattern.endsWith('*') ? subject.startsWith(pattern.slice(0, -1)) : subject === pattern;
}

export function isTenantWide(patterns: readonly string[]): boolean {
  return patterns.includes(TENANT_WIDE);
}
