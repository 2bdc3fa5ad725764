import { readFileSync } from 'node:fs';
import { pushResource } from '../portal/push-resource';
import { connectPortal } from '../portal/portal-session';
import { NotFoundError } from '../errors';
import { ServerActionError } from './server-client';
import { type CliCommand, DATA_DIR_HELP, UsageError, defineCommand, integerOption, stringOption } from './command';
import type { PushOutcome } from '../../shared/portal';
import {
  NETWORK_OPTIONS,
  NETWORK_HELP,
  dataDirOption,
  followPortalJob,
  itemReporter,
  networkSettings,
  noteIgnoredOptions,
  stderrLine,
  withLocalEngine,
} from './portal-cli';

/** The portal token: --token, else --token-file, else $DESKSTORE_PORTAL_TOKEN, else the one remembered for the portal. */
export function portalTokenOption(token: string | undefined, file: string | undefined): string | undefined {
  if (token !== undefined) return token;
  if (file !== undefined) {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (err) {
      throw new UsageError(`--token-file ${file} cannot be read: ${(err as Error).message}`);
    }
  }
  return process.env.DESKSTORE_PORTAL_TOKEN || undefined;
}

export const pushCli: CliCommand = defineCommand({
  name: 'push',
  summary:
    "Publishes a local table to a CKAN portal's DataStore (fields, labels, key, then the rows in batches); resumes after an interruption without sending a row twice, " +
    "checks the portal's total, answers `unchanged` when nothing changed. One JSON line on stdout. When a Deskstore server holds the data directory, the push runs there (deskstore_push).",
  options: {
    data: { type: 'string' },
    to: { type: 'string' },
    token: { type: 'string' },
    'token-file': { type: 'string' },
    dataset: { type: 'string' },
    'owner-org': { type: 'string' },
    'resource-name': { type: 'string' },
    'batch-rows': { type: 'string' },
    'batch-kb': { type: 'string' },
    ...NETWORK_OPTIONS,
  },
  help: {
    data: { value: 'DIR', text: DATA_DIR_HELP },
    to: { value: 'PORTAL_URL', text: 'The portal to publish to.', required: true },
    token: {
      value: 'TOKEN',
      text: "The portal's API token. Also from --token-file, $DESKSTORE_PORTAL_TOKEN, or the one remembered for the portal; never printed.",
    },
    'token-file': { value: 'FILE', text: "Read the portal's API token from FILE." },
    dataset: {
      value: 'NAME',
      text: "The portal dataset to publish into: an existing one the token may edit, or created. Default: the local dataset's name.",
    },
    'owner-org': { value: 'ORG', text: 'The organization of a dataset the push creates.' },
    'resource-name': { value: 'NAME', text: "The portal resource's name. Default: the local resource's." },
    'batch-rows': { value: 'N', text: 'At most N rows per datastore_upsert. Default 10000.' },
    'batch-kb': { value: 'N', text: 'At most N KB of JSON per datastore_upsert. Default 2048.' },
    ...NETWORK_HELP,
  },
  positionals: { min: 1, max: 1, name: 'RESOURCE_ID', text: 'The local resource to publish.' },
  async run(values, positionals, env) {
    const to = stringOption(values.to);
    if (!to) throw new UsageError('push needs --to PORTAL_URL');
    const dataDir = dataDirOption(values);
    const settings = networkSettings(values, stderrLine);
    const token = portalTokenOption(stringOption(values.token), stringOption(values['token-file']));
    const dataset = stringOption(values.dataset);
    const ownerOrg = stringOption(values['owner-org']);
    const resourceName = stringOption(values['resource-name']);
    const batchRows = integerOption(values['batch-rows'], '--batch-rows', 1);
    const batchKb = integerOption(values['batch-kb'], '--batch-kb', 1);
    const outcome = await withLocalEngine(
      dataDir,
      'push',
      async (engine) => {
        // The local resource before the portal: a mistyped id is told as such, not as CKAN's bare "Not found".
        await engine.resourceShow(positionals[0]!, 'http://127.0.0.1').catch((err: unknown) => {
          throw err instanceof NotFoundError ? noSuchResource(positionals[0]!, dataDir) : err;
        });
        const { client } = await connectPortal(dataDir, to, env.version, settings, token);
        stderrLine(`portal ${client.base}: pushing ${positionals[0]!}`);
        return pushResource(
          {
            engine,
            siteUrl: 'http://127.0.0.1',
            onItem: itemReporter(),
            log: stderrLine,
            ...(batchRows ? { maxBatchRows: batchRows } : {}),
            ...(batchKb ? { maxBatchBytes: batchKb * 1024 } : {}),
          },
          client,
          {
            resourceId: positionals[0]!,
            ...(dataset ? { dataset } : {}),
            ...(ownerOrg ? { ownerOrg } : {}),
            ...(resourceName ? { resourceName } : {}),
          },
        );
      },
      async (server) => {
        noteIgnoredOptions(values, [...Object.keys(NETWORK_OPTIONS), 'batch-rows', 'batch-kb']);
        const started = await server
          .call('deskstore_push', {
            resource_id: positionals[0]!,
            to,
            ...(token ? { token } : {}),
            ...(dataset ? { dataset } : {}),
            ...(ownerOrg ? { owner_org: ownerOrg } : {}),
            ...(resourceName ? { resource_name: resourceName } : {}),
          })
          .catch((err: unknown) => {
            // deskstore_push looks the resource up before the portal, and answers 404 only for it.
            throw err instanceof ServerActionError && err.status === 404 ? noSuchResource(positionals[0]!, dataDir) : err;
          });
        return (await followPortalJob(server, started)).result as PushOutcome;
      },
    );
    stderrLine(`${outcome.status}: ${outcome.rows} rows at ${outcome.url}`);
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
  },
});

function noSuchResource(id: string, dataDir: string): NotFoundError {
  return new NotFoundError(`there is no resource ${id} in ${dataDir}`);
}
