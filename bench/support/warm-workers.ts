// Each process of `serve --workers N` holds its own opened corpora (what
// recall decrypted and indexed of a subject): a subject's first recall in
// each is cold. The cluster's primary hands new connections to the workers in
// turn, so recalls sent one after another, each on a connection of its own,
// reach every worker: the phases then measure the steady state, as they do
// with one process (whose corpora the import's first recall warmed).
import { request } from 'node:http';

function getOnNewConnection(url: string, apiKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { agent: false, headers: { authorization: `Bearer ${apiKey}`, connection: 'close' } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode ?? 0));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** Sends each path twice per worker, one at a time, each on a new connection; throws on an answer that is not 200. */
export async function warmWorkers(url: string, apiKey: string, paths: readonly string[], workers: number): Promise<void> {
  if (workers <= 1) return;
  for (const path of paths)
    for (let i = 0; i < 2 * workers; i++) {
      const status = await getOnNewConnection(`${url}${path}`, apiKey);
      if (status !== 200) throw new Error(`warming ${path} answered ${status}`);
    }
}
