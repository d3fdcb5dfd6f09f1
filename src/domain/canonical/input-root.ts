// The input root of a manifest: one hash over the inputs as a set, so the
// order or grouping in which inputs were gathered does not change it.
import type { ManifestInput } from '../events/manifest.js';
import { canonicalSha256 } from './sha256.js';

export function inputRoot(inputs: readonly ManifestInput[]): string {
  const sorted = [...inputs].sort((a, b) => (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0));
  return canonicalSha256(sorted);
}
