// Other applications' events. A production cluster is often shared: its $all
// holds streams memledger never wrote — binary events, JSON without
// memledger's metadata — between memledger's own. The double seeds a few, as
// it seeds the server's system events, and tests add more where they like.
import { randomUUID } from 'node:crypto';
import type { InMemoryLog, ProposedEvent } from './log.js';

const bytes = (text: string) => Uint8Array.from(Buffer.from(text, 'utf8'));

/** The n-th foreign event: binary, JSON without metadata, JSON with someone else's metadata, in turn. */
function foreignEvent(n: number): ProposedEvent {
  const id = randomUUID();
  switch (n % 3) {
    case 0:
      return {
        id,
        type: 'OrderPlaced',
        contentType: 'application/octet-stream',
        data: Uint8Array.from([0xff, 0x00, n & 0xff]),
        customMetadata: new Uint8Array(),
      };
    case 1:
      return {
        id,
        type: 'OrderShipped',
        contentType: 'application/json',
        data: bytes(JSON.stringify({ order: n })),
        customMetadata: new Uint8Array(),
      };
    default:
      return {
        id,
        type: 'InvoiceSent',
        contentType: 'application/json',
        data: bytes('{"invoice":'),
        customMetadata: bytes(JSON.stringify({ tenant: 'billing' })),
      };
  }
}

let seeded = 0;

/** Appends `count` foreign events to streams `orders-…` of the log. */
export function appendForeignEvents(log: InMemoryLog, count: number): void {
  for (let i = 0; i < count; i++) {
    const n = seeded++;
    log.commit(`orders-${n % 7}`, { kind: 'any' }, [foreignEvent(n)]);
  }
}
