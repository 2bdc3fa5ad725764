import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { EngineApi } from '../engine/engine-api';
import { importIntoResource } from '../importer/import-job';
import { workerImportRunner } from '../importer/worker-runner';
import { PRIVATE_FILE_MODE } from '../storage/data-paths';

const SAMPLE_PACKAGE = 'esempio-comuni-italiani';
const MARKER = 'sample-offered';

/**
 * On the first start of a new data directory, imports the embedded sample (a real ISTAT
 * export) so the first screen is not empty. Offered once: a user who deletes it keeps an
 * empty catalogue.
 */
export async function ensureSampleResource(engine: EngineApi, dataDir: string, sampleFile: string, importWorker: URL): Promise<boolean> {
  const marker = join(dataDir, MARKER);
  if (existsSync(marker) || !existsSync(sampleFile)) return false;
  if ((await engine.packageList(null, 0)).length === 0) {
    const resourceId = randomUUID();
    const siteUrl = 'http://127.0.0.1';
    await importIntoResource(engine, sampleFile, resourceId, {}, workerImportRunner(importWorker), {
      beforePublish: async () => {
        const pkg = await engine.packageCreate(
          {
            name: SAMPLE_PACKAGE,
            title: 'Comuni italiani (esempio) · Italian municipalities (sample)',
            notes: "ISTAT, Elenco comuni italiani: Valle d'Aosta, Trentino-Alto Adige, Friuli-Venezia Giulia. CC BY 3.0 IT.",
          },
          siteUrl,
        );
        await engine.resourceCreate(
          {
            package_id: pkg.id,
            id: resourceId,
            name: 'Elenco comuni (nord-est)',
            url: 'comuni-italiani-nord-est.csv',
            url_type: 'upload',
            format: 'CSV',
          },
          siteUrl,
        );
      },
    });
  }
  writeFileSync(marker, `${new Date().toISOString()}\n`, { mode: PRIVATE_FILE_MODE });
  return true;
}
