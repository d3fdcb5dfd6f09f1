import type { Api } from '../api/client.js';

/** What every view is given: the API with the auditor's key, and the subject asked about. */
export interface ViewProps {
  readonly api: Api;
  readonly subject: string;
}
