// The runtime's typed errors. `code` is what the CLI prints as `error`.
import type { DefinitionIdentity } from './definition-hash.js';

export abstract class ProjectionError extends Error {
  abstract readonly code: string;
}

/** The active tables were built by another definition: incremental runs would mix two layouts or meanings. */
export class ProjectionRebuildRequired extends ProjectionError {
  override readonly name = 'ProjectionRebuildRequired';
  readonly code = 'projection_rebuild_required';
  constructor(
    readonly projection: string,
    readonly stored: { readonly schema: string; readonly version: number; readonly definitionHash: string },
    readonly expected: DefinitionIdentity,
  ) {
    super(
      `projection ${projection}: the active schema ${stored.schema} was built by version ${stored.version} (definition ${stored.definitionHash.slice(0, 8)}), ` +
        `this code builds version ${expected.version} (definition ${expected.definitionHash.slice(0, 8)}); it will not run incrementally: run \`memledger projections rebuild\``,
    );
  }
}

export class RebuildInProgress extends ProjectionError {
  override readonly name = 'RebuildInProgress';
  readonly code = 'rebuild_in_progress';
  constructor(
    readonly projection: string,
    readonly schema: string,
  ) {
    super(`projection ${projection}: another process is rebuilding it into ${schema}`);
  }
}

/** A rebuild stopped on an error; its building schema was dropped (the active one served throughout). */
export class RebuildFailed extends ProjectionError {
  override readonly name = 'RebuildFailed';
  readonly code = 'rebuild_failed';
  constructor(
    readonly projection: string,
    readonly schema: string,
    readonly dropped: boolean,
    override readonly cause: unknown,
  ) {
    super(
      `projection ${projection}: the rebuild into ${schema} failed (${cause instanceof Error ? cause.message : String(cause)}); ` +
        (dropped
          ? 'its building schema was dropped, the active schema still serves'
          : 'its building schema could not be dropped now: the next rebuild drops it'),
    );
  }
}

/** The projection did not reach the target in time (another projector owns it and lags, or the target stayed unreadable). */
export class CatchUpTimeout extends ProjectionError {
  override readonly name = 'CatchUpTimeout';
  readonly code = 'projection_catch_up_timeout';
  constructor(
    readonly projection: string,
    readonly waitedMs: number,
  ) {
    super(
      `projection ${projection}: did not catch up within ${waitedMs} ms (another projector owns it and lags, or the log did not show the target yet)`,
    );
  }
}

/** A projector's schema was retired or dropped under it (a rebuild swapped another in). */
export class ProjectionSchemaRetired extends ProjectionError {
  override readonly name = 'ProjectionSchemaRetired';
  readonly code = 'projection_schema_retired';
  constructor(readonly schema: string) {
    super(`projection schema ${schema} is no longer served (a rebuild replaced it)`);
  }
}
