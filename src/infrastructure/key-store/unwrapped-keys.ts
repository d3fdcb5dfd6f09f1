// Keys this process has unwrapped, remembered by the row they were unwrapped
// from (issue 20: a recall of 60 memories spent a tenth of its CPU unwrapping
// the same keys with AES-GCM and building their associated data again).
// An entry is found only by the exact wrapped bytes and the place (tenant,
// subject, memory, key ids, master key id) they were authenticated under, so
// it is used only after that very row has been read again: a destroyed key
// row (an erasure, in any process) is never answered from here. Forgets made
// through this process drop the subject's entries at once; the rest leave in
// least-recently-used order. Never written anywhere.
//
// It also remembers, per subject, the secret it last saw live: a record makes
// its memory key with it without reading the subject's row again, because the
// making function checks, in the same statement, that the subject is still
// live under that key id and master key (migration 0011); when it is not,
// the entry is dropped and the record reads the row.
import type { OpenedSubject } from './postgres-opened-rows.js';
import type { SubjectRef } from './port.js';

export type LiveSubject = Extract<OpenedSubject, { readonly status: 'live' }>;

const subjectPart = (ref: SubjectRef) => `${ref.tenant}\u0000${ref.subject}\u0000`;

export class UnwrappedKeys {
  // Insertion order is use order: the first entry is the least recently used.
  readonly #keys = new Map<string, Buffer>();
  readonly #live = new Map<string, LiveSubject>();

  /** @param capacity keys kept in all (32 bytes each, plus their names). */
  constructor(readonly capacity: number) {}

  /** The key unwrapped from `wrapped` at `place` (the ids it is authenticated with): remembered, or `unwrap()`ped now. */
  open(ref: SubjectRef, place: string, wrapped: Buffer, unwrap: () => Buffer): Buffer {
    if (this.capacity === 0) return unwrap();
    const name = `${subjectPart(ref)}${place}\u0000${wrapped.toString('base64')}`;
    const known = this.#keys.get(name);
    if (known !== undefined) {
      this.#keys.delete(name);
      this.#keys.set(name, known);
      return known;
    }
    const key = unwrap();
    this.#keys.set(name, key);
    if (this.#keys.size > this.capacity) this.#keys.delete(this.#keys.keys().next().value!);
    return key;
  }

  /** The subject as last seen live (to be confirmed by the statement that uses it), if remembered. */
  liveSubject(ref: SubjectRef): LiveSubject | undefined {
    return this.#live.get(subjectPart(ref));
  }

  rememberLive(ref: SubjectRef, subject: LiveSubject): void {
    if (this.capacity === 0) return;
    const name = subjectPart(ref);
    this.#live.delete(name);
    this.#live.set(name, subject);
    if (this.#live.size > this.capacity) this.#live.delete(this.#live.keys().next().value!);
  }

  /** Drops every key of the subject (its secret, its memories' and its live entry). */
  dropSubject(ref: SubjectRef): void {
    const prefix = subjectPart(ref);
    this.#live.delete(prefix);
    for (const name of this.#keys.keys()) if (name.startsWith(prefix)) this.#keys.delete(name);
  }

  /** Kept keys of the subject (`'subject'`: any) or of these memories. */
  held(ref: SubjectRef, of: 'subject' | readonly string[]): number {
    const prefix = subjectPart(ref);
    const memories = of === 'subject' ? undefined : new Set(of);
    // A memory's entry is named `…m\0{memoryId}\0…` after the subject's part.
    const memoryOf = (name: string) =>
      name.startsWith('m\u0000', prefix.length) ? name.slice(prefix.length + 2, name.indexOf('\u0000', prefix.length + 2)) : undefined;
    let n = memories === undefined && this.#live.has(prefix) ? 1 : 0;
    for (const name of this.#keys.keys()) {
      if (!name.startsWith(prefix)) continue;
      const memory = memories && memoryOf(name);
      if (memories === undefined || (memory !== undefined && memories.has(memory))) n += 1;
    }
    return n;
  }

  get size(): number {
    return this.#keys.size;
  }
}
