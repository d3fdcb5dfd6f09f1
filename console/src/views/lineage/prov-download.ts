// The lineage as W3C PROV-JSON, fetched with the auditor's key and handed
// to the browser as a file (a blob: link of this page; nothing leaves it).
import { artifactPath, type Api } from '../../api/client.js';

export async function downloadProvJson(api: Api, artifactId: string): Promise<void> {
  const document = await api.get<unknown>(artifactPath(artifactId, '/lineage'), { format: 'prov-json' });
  const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }));
  try {
    const link = window.document.createElement('a');
    link.href = url;
    link.download = `${artifactId.replace(/[^A-Za-z0-9._-]/g, '_')}.prov.json`;
    link.click();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
