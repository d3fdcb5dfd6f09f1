// The typed error of a read that waited for its own writes to be projected
// and gave up (its own module: the CLI's error reporting imports it without
// loading the read side).

/** The projections did not reach the caller's writes in time. */
export class ProjectionsBehind extends Error {
  override readonly name = 'ProjectionsBehind';
  readonly code = 'projections_behind';
  constructor(
    readonly target: string,
    readonly waitedMs: number,
  ) {
    super(
      `the projections did not reach position ${target} within ${waitedMs} ms: a long transaction elsewhere on the server may be holding the log back`,
    );
  }
}
