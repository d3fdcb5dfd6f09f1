// Namespaces (seed 003, DESIGN section 14): every subject lives at one. A
// subject id `kind:id` (`user:u-7`, `team:t-1`) names a namespace under its
// tenant; any other id (today's plain `u1`, or `other:x`) is a tenant-level
// subject. The tenant is never part of the id: it comes from the key.
import { requireId } from '../values/ids.js';

export const NAMESPACE_KINDS = ['user', 'team', 'project', 'agent', 'thread'] as const;
export type NamespaceKind = (typeof NAMESPACE_KINDS)[number];

/** Namespaces several people read: a user's recall may include them; a private memory reaches them only by promotion. */
export const SHARED_KINDS: readonly NamespaceKind[] = ['team', 'project'];

export type Namespace =
  { readonly kind: 'tenant'; readonly subject: string } | { readonly kind: NamespaceKind; readonly id: string; readonly subject: string };

export function isNamespaceKind(value: string): value is NamespaceKind {
  return (NAMESPACE_KINDS as readonly string[]).includes(value);
}

/** The namespace of a (valid) subject id. */
export function namespaceOf(subject: string): Namespace {
  const colon = subject.indexOf(':');
  const kind = colon < 0 ? '' : subject.slice(0, colon);
  const id = subject.slice(colon + 1);
  if (colon > 0 && isNamespaceKind(kind) && id !== '') return { kind, id, subject };
  return { kind: 'tenant', subject };
}

/** Parses a subject id (throws InvalidInput naming `field`). */
export function parseNamespace(field: string, value: unknown): Namespace {
  return namespaceOf(requireId(field, value));
}

export function formatNamespace(kind: NamespaceKind, id: string): string {
  return `${kind}:${id}`;
}

export function isShared(namespace: Namespace): boolean {
  return namespace.kind !== 'tenant' && SHARED_KINDS.includes(namespace.kind);
}

/** Private: a user's, an agent's or a thread's own namespace (a tenant-level subject is neither private nor shared). */
export function isPrivate(namespace: Namespace): boolean {
  return namespace.kind === 'user' || namespace.kind === 'agent' || namespace.kind === 'thread';
}
