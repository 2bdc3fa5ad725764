import { readFileSync } from 'node:fs';
import { pushResource } from '../portal/push-resource';
import { connectPortal } from '../portal/portal-session';
import { type CliCommand, UsageError, integerOption, stringOption } from './command';
import type { PushOutcome } from '../../shared/portal';
import {
  NETWORK_OPTIONS,
  NETWORK_USAGE,
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

export const pushCli: CliCommand = {
  name: 'push',
  usage: `deskstore push RESOURCE_ID --to PORTAL_URL [--data DIR] [--token T | --token-file FILE] [--dataset NAME]
                   [--owner-org ORG] [--resource-name NAME] [--batch-rows N] [--batch-kb N] ${NETWORK_USAGE}
      the token may also come from $DESKSTORE_PORTAL_TOKEN, or be the one remembered for the portal`,
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
  positionals: { min: 1, max: 1, name: 'RESOURCE_ID' },
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
        const started = await server.call('deskstore_push', {
          resource_id: positionals[0]!,
          to,
          ...(token ? { token } : {}),
          ...(dataset ? { dataset } : {}),
          ...(ownerOrg ? { owner_org: ownerOrg } : {}),
          ...(resourceName ? { resource_name: resourceName } : {}),
        });
        return (await followPortalJob(server, started)).result as PushOutcome;
      },
    );
    stderrLine(`${outcome.status}: ${outcome.rows} rows at ${outcome.url}`);
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
  },
};
