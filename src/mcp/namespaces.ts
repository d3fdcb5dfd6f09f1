// Which subjects an MCP server may touch (DESIGN section 14: subjects live in
// namespaces written `kind:id`). A pattern is a subject id, or a prefix
// ending in `*` (`user:*`); none at all means every subject of the tenant.
import { z } from 'zod';
import { InvalidInput } from '../domain/validation/invalid-input.js';

const PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}\*?$|^\*$/;

export const namespacePatternSchema = z.string().regex(PATTERN, { error: 'must be a subject id or a prefix ending in * (e.g. user:*)' });

export function requireNamespaces(patterns: readonly string[], field = 'namespace'): string[] {
  return patterns.map((pattern) => {
    const parsed = namespacePatternSchema.safeParse(pattern);
    if (!parsed.success) throw new InvalidInput(field, `${parsed.error.issues[0]?.message ?? 'is invalid'} (got "${pattern}")`);
    return parsed.data;
  });
}

export function isPermittedSubject(patterns: readonly string[], subject: string): boolean {
  if (patterns.length === 0) return true;
  return patterns.some((p) => (p.endsWith('*') ? subject.startsWith(p.slice(0, -1)) : subject === p));
}
