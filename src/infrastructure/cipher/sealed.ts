// The envelope shape is the domain's: events carry it, the cipher fills it.
export type { Sealed } from '../../domain/events/sealed.js';
