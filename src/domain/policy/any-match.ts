// Most texts a detector reads hold nothing it looks for (no secret, no
// identifier, no injection marker): one pass of the union of its regular
// expressions says so, instead of one pass per expression (a record's gate
// ran some seventy). The union only answers whether any of them may match;
// when one may, each runs as before, so what is found is exactly what
// running each alone finds.
//
// Expressions are joined per set of flags that changes what they match (all
// but g, d and y). One with a backreference stays alone (joining would
// renumber its groups), and so does every expression of a set whose union
// does not compile (two groups of one name).

const cache = new WeakMap<readonly RegExp[], readonly RegExp[]>();

/** Whether any of `expressions` matches somewhere in `text`; their union is built once per array. */
export function anyMatches(text: string, expressions: readonly RegExp[]): boolean {
  let unions = cache.get(expressions);
  if (unions === undefined) {
    unions = unionsOf(expressions);
    cache.set(expressions, unions);
  }
  return unions.some((union) => union.test(text));
}

const BACKREFERENCE = /\\[1-9]|\\k</;

function unionsOf(expressions: readonly RegExp[]): RegExp[] {
  const byFlags = new Map<string, string[]>();
  const alone: RegExp[] = [];
  for (const expression of expressions) {
    const flags = matchingFlags(expression);
    if (BACKREFERENCE.test(expression.source)) alone.push(new RegExp(expression.source, flags));
    else byFlags.set(flags, [...(byFlags.get(flags) ?? []), expression.source]);
  }
  const unions = [...byFlags].flatMap(([flags, sources]) => {
    try {
      return [new RegExp(sources.map((source) => `(?:${source})`).join('|'), flags)];
    } catch {
      return sources.map((source) => new RegExp(source, flags));
    }
  });
  return [...unions, ...alone];
}

/** The flags that decide what matches; g, d and y only decide how matching goes on (a union tests once, from the start). */
const matchingFlags = (expression: RegExp): string => expression.flags.replace(/[gdy]/g, '');
