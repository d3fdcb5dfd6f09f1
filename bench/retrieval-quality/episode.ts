// The shape of the hand-written part of the retrieval-quality data set: an
// episode is what a user told an assistant about themselves (one or more
// blocks of turns, each block placed at its own moment of the history) and
// the questions a user or an agent would later ask about it, each naming the
// turns that answer it ("block.turn", e.g. "1.0" = block 1, turn 0).
export interface EpisodeTurn {
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

export interface EpisodeQuestion {
  readonly text: string;
  /** The turns that answer it: "block.turn" indices into the episode. */
  readonly gold: readonly string[];
}

export interface Episode {
  readonly id: string;
  readonly lang: 'en' | 'zh';
  /** A block whose last turn is the user's gets a generic acknowledgement from the assistant. */
  readonly blocks: ReadonlyArray<ReadonlyArray<EpisodeTurn>>;
  readonly questions: readonly EpisodeQuestion[];
}

export const user = (text: string): EpisodeTurn => ({ role: 'user', text });
export const assistant = (text: string): EpisodeTurn => ({ role: 'assistant', text });
