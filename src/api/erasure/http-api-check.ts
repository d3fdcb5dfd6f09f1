// The HTTP API as a read path an erasure is checked against: the service
// asks its own routes (fastify's inject: in process, through routing, auth,
// validation and serialization, never the network) what they return about
// the subject and the artifacts deriving from the erased entries, and
// searches every answer body — errors included — for the erased content.
// Its credential is an auditor's, of the subject's tenant and namespace, made
// for this check and revoked after it (auth/own-requests.ts).
import type { FastifyInstance } from 'fastify';
import { findNeedles } from '../../reads/erasure/needles.js';
import {
  checkedMoments,
  passedOrFailed,
  subjectArtifactIds,
  type ErasureCheck,
  type ErasureTarget,
} from '../../reads/erasure/verification.js';
import type { KeyStore } from '../../infrastructure/key-store/port.js';
import type { OwnRequestKeys } from '../auth/own-requests.js';

export const HTTP_API_CHECK = 'http_api';

export interface HttpApiCheckDeps {
  readonly app: FastifyInstance;
  readonly ownKeys: OwnRequestKeys;
  readonly keyStore: Pick<KeyStore, 'listArtifactKeyIds'>;
  readonly clock: () => Date;
}

export function httpApiErasureCheck(deps: HttpApiCheckDeps): ErasureCheck {
  return {
    path: HTTP_API_CHECK,
    async run(target) {
      const urls = await readUrls(deps, target);
      // Bound to the erased subject alone: the self-check goes through the same access rule as any key.
      const token = deps.ownKeys.issue(target.ref.tenant, 'auditor', 'erasure-check', [target.ref.subject]);
      let findings = 0;
      try {
        for (const url of urls) {
          const response = await deps.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
          // A server error is a check that could not run, never a pass.
          if (response.statusCode >= 500) throw new HttpApiCheckError(url, response.statusCode);
          findings += findNeedles(response.body, target.needles);
        }
      } finally {
        deps.ownKeys.revoke(token);
      }
      return passedOrFailed(urls.length, findings);
    },
  };
}

/** Every read route of the subject, as of now and as of each erased entry's recording, and every route of its artifacts. */
async function readUrls(deps: HttpApiCheckDeps, target: ErasureTarget): Promise<string[]> {
  const subject = `/v1/subjects/${encodeURIComponent(target.ref.subject)}`;
  const moments = checkedMoments(deps.clock(), target).map(encodeURIComponent);
  const artifactIds = await subjectArtifactIds(deps.keyStore, target);
  return [
    `${subject}/recall?maxSensitivity=restricted`,
    `${subject}/conflicts`,
    `${subject}/events`,
    `${subject}/stale`,
    ...moments.flatMap((t) => [`${subject}/as-of?systemTime=${t}`, `${subject}/replay?at=${t}`]),
    ...artifactIds.flatMap((id) => {
      const artifact = `/v1/artifacts/${encodeURIComponent(id)}`;
      return [
        artifact,
        `${artifact}/lineage`,
        `${artifact}/lineage?format=prov-json`,
        `${artifact}/assessment?subject=${encodeURIComponent(target.ref.subject)}`,
      ];
    }),
  ];
}

export class HttpApiCheckError extends Error {
  override readonly name = 'HttpApiCheckError';
  constructor(
    readonly url: string,
    readonly status: number,
  ) {
    super(`GET ${url} answered ${status}`);
  }
}
