// An immutable map from strings to values with O(log32 n) updates that share
// structure (a hash array mapped trie). The subject state lives in these so
// that evolve stays pure without copying every entry per event: a command's
// cost must not grow with the stream's length.

const BITS = 5;
const MASK = 31;

interface Leaf<V> {
  readonly kind: 'leaf';
  readonly hash: number;
  readonly key: string;
  readonly value: V;
}
/** Keys whose 32-bit hashes are equal, sorted by key so the shape is deterministic. */
interface Collision<V> {
  readonly kind: 'collision';
  readonly hash: number;
  readonly leaves: readonly Leaf<V>[];
}
interface Branch<V> {
  readonly kind: 'branch';
  readonly bitmap: number;
  readonly children: readonly Node<V>[];
}
type Node<V> = Leaf<V> | Collision<V> | Branch<V>;

/** FNV-1a over UTF-16 code units. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

const fragment = (hash: number, shift: number) => (hash >>> shift) & MASK;

function lookup<V>(node: Node<V> | undefined, hash: number, key: string, shift: number): Leaf<V> | undefined {
  while (node) {
    if (node.kind === 'leaf') return node.key === key ? node : undefined;
    if (node.kind === 'collision') return node.hash === hash ? node.leaves.find((l) => l.key === key) : undefined;
    const bit = 1 << fragment(hash, shift);
    if ((node.bitmap & bit) === 0) return undefined;
    node = node.children[popcount(node.bitmap & (bit - 1))];
    shift += BITS;
  }
  return undefined;
}

/** Joins two nodes of different hashes under a branch at `shift`. */
function join<V>(a: Leaf<V> | Collision<V>, b: Leaf<V>, shift: number): Branch<V> {
  const ai = fragment(a.hash, shift);
  const bi = fragment(b.hash, shift);
  if (ai === bi) return { kind: 'branch', bitmap: 1 << ai, children: [join(a, b, shift + BITS)] };
  return { kind: 'branch', bitmap: (1 << ai) | (1 << bi), children: ai < bi ? [a, b] : [b, a] };
}

function insert<V>(node: Node<V> | undefined, leaf: Leaf<V>, shift: number): Node<V> {
  if (!node) return leaf;
  if (node.kind === 'leaf') {
    if (node.key === leaf.key) return leaf;
    if (node.hash === leaf.hash)
      return { kind: 'collision', hash: leaf.hash, leaves: [node, leaf].sort((x, y) => (x.key < y.key ? -1 : 1)) };
    return join(node, leaf, shift);
  }
  if (node.kind === 'collision') {
    if (node.hash !== leaf.hash) return join(node, leaf, shift);
    const others = node.leaves.filter((l) => l.key !== leaf.key);
    return { kind: 'collision', hash: node.hash, leaves: [...others, leaf].sort((x, y) => (x.key < y.key ? -1 : 1)) };
  }
  const bit = 1 << fragment(leaf.hash, shift);
  const index = popcount(node.bitmap & (bit - 1));
  const children = node.children.slice();
  if ((node.bitmap & bit) === 0) {
    children.splice(index, 0, leaf);
    return { kind: 'branch', bitmap: node.bitmap | bit, children };
  }
  children[index] = insert(node.children[index], leaf, shift + BITS);
  return { kind: 'branch', bitmap: node.bitmap, children };
}

function remove<V>(node: Node<V>, hash: number, key: string, shift: number): Node<V> | undefined {
  if (node.kind === 'leaf') return node.key === key ? undefined : node;
  if (node.kind === 'collision') {
    const rest = node.leaves.filter((l) => l.key !== key);
    return rest.length === 1 ? rest[0] : { kind: 'collision', hash: node.hash, leaves: rest };
  }
  const bit = 1 << fragment(hash, shift);
  if ((node.bitmap & bit) === 0) return node;
  const index = popcount(node.bitmap & (bit - 1));
  const child = remove(node.children[index]!, hash, key, shift + BITS);
  const children = node.children.slice();
  if (child) children[index] = child;
  else children.splice(index, 1);
  const bitmap = child ? node.bitmap : node.bitmap & ~bit;
  if (children.length === 0) return undefined;
  // A lone leaf needs no branch above it: keeps the shape independent of history.
  if (children.length === 1 && children[0]!.kind !== 'branch') return children[0];
  return { kind: 'branch', bitmap, children };
}

function* walk<V>(node: Node<V> | undefined): Generator<Leaf<V>> {
  if (!node) return;
  if (node.kind === 'leaf') yield node;
  else if (node.kind === 'collision') yield* node.leaves;
  else for (const child of node.children) yield* walk(child);
}

export class PersistentMap<V> {
  private constructor(
    private readonly root: Node<V> | undefined,
    readonly size: number,
  ) {}

  static empty<V>(): PersistentMap<V> {
    return new PersistentMap<V>(undefined, 0);
  }

  static from<V>(entries: Iterable<readonly [string, V]>): PersistentMap<V> {
    let map = PersistentMap.empty<V>();
    for (const [key, value] of entries) map = map.set(key, value);
    return map;
  }

  get(key: string): V | undefined {
    return lookup(this.root, hashKey(key), key, 0)?.value;
  }

  has(key: string): boolean {
    return lookup(this.root, hashKey(key), key, 0) !== undefined;
  }

  set(key: string, value: V): PersistentMap<V> {
    const hash = hashKey(key);
    const existing = lookup(this.root, hash, key, 0);
    if (existing && Object.is(existing.value, value)) return this;
    return new PersistentMap(insert(this.root, { kind: 'leaf', hash, key, value }, 0), existing ? this.size : this.size + 1);
  }

  delete(key: string): PersistentMap<V> {
    if (!this.root) return this;
    const hash = hashKey(key);
    if (!lookup(this.root, hash, key, 0)) return this;
    return new PersistentMap(remove(this.root, hash, key, 0), this.size - 1);
  }

  /** In hash order: deterministic for a given key set, but not insertion order — sort where order matters. */
  *entries(): Generator<[string, V]> {
    for (const leaf of walk(this.root)) yield [leaf.key, leaf.value];
  }

  *keys(): Generator<string> {
    for (const leaf of walk(this.root)) yield leaf.key;
  }

  *values(): Generator<V> {
    for (const leaf of walk(this.root)) yield leaf.value;
  }

  [Symbol.iterator](): Generator<[string, V]> {
    return this.entries();
  }
}
