// The typed error of a read about a subject whose stream holds an event the
// memory projection could not apply (recorded as a fault: projections/
// runtime/faults.ts). Its rows lack that event, so an answer from them could
// be wrong (a retraction or an erasure passed over); the read refuses and
// says which event and why. Its own module: the CLI's and the API's error
// reporting import it without loading the read side.
import type { ProjectionFault } from '../projections/runtime/faults.js';

export class SubjectProjectionFaulted extends Error {
  override readonly name = 'SubjectProjectionFaulted';
  readonly code = 'projection_fault';
  readonly field = 'subject';
  constructor(
    readonly tenant: string,
    readonly subject: string,
    readonly faults: readonly ProjectionFault[],
  ) {
    const first = faults[0]!;
    super(
      `subject ${subject}: the memory projection could not apply ${faults.length === 1 ? 'an event' : `${faults.length} events`} of its stream ` +
        `(first: ${first.eventType} at revision ${first.streamRevision}, ${first.code}: ${first.message}); ` +
        'its reads would be incomplete, so none is answered (see `memledger projections status`)',
    );
  }

  get details(): { faults: readonly ProjectionFault[] } {
    return { faults: this.faults };
  }
}
