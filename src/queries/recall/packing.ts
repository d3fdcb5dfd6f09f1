// Packing to a token budget: whole items only, mandatory ones (open
// conflicts) always, the rest by priority while they fit. An item that does
// not fit is left out, never cut; a smaller one after it may still fit.
export interface Packable {
  readonly tokens: number;
  readonly mandatory: boolean;
}

export interface Packed<T> {
  readonly included: readonly T[];
  readonly omitted: readonly T[];
  readonly used: number;
  /** True when the mandatory items alone exceed the budget. */
  readonly overBudget: boolean;
}

/** `items` in priority order, highest first. */
export function pack<T extends Packable>(items: readonly T[], budget: number | undefined): Packed<T> {
  let used = 0;
  for (const item of items) if (item.mandatory) used += item.tokens;
  const overBudget = budget !== undefined && used > budget;
  const included = new Set<T>(items.filter((i) => i.mandatory));
  for (const item of items) {
    if (item.mandatory) continue;
    if (budget === undefined || used + item.tokens <= budget) {
      included.add(item);
      used += item.tokens;
    }
  }
  return { included: items.filter((i) => included.has(i)), omitted: items.filter((i) => !included.has(i)), used, overBudget };
}
