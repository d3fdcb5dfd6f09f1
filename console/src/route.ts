// Where the page is: `#/{view}?subject=…&artifact=…`. The key is never part
// of it (a URL ends up in history and logs).
export const VIEWS = ['timeline', 'lineage', 'recall', 'erasure'] as const;
export type ViewName = (typeof VIEWS)[number];

export interface Route {
  readonly view: ViewName;
  readonly subject: string;
  readonly artifact?: string;
}

export const DEFAULT_ROUTE: Route = { view: 'timeline', subject: '' };

/** Undefined for a hash that is not a route (e.g. a fragment link): the page stays where it is. */
export function parseRoute(hash: string): Route | undefined {
  const m = /^#\/([a-z]+)(?:\?(.*))?$/.exec(hash);
  if (!m) return hash === '' ? DEFAULT_ROUTE : undefined;
  const view = (VIEWS as readonly string[]).includes(m[1]!) ? (m[1] as ViewName) : DEFAULT_ROUTE.view;
  const params = new URLSearchParams(m[2] ?? '');
  const artifact = params.get('artifact') ?? undefined;
  return { view, subject: params.get('subject') ?? '', ...(artifact ? { artifact } : {}) };
}

export function formatRoute(route: Route): string {
  const params = new URLSearchParams();
  if (route.subject) params.set('subject', route.subject);
  if (route.artifact) params.set('artifact', route.artifact);
  const query = params.toString();
  return `#/${route.view}${query ? `?${query}` : ''}`;
}
