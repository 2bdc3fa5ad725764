import type { MirrorOutcome } from '../../shared/portal';
import { mirrorDataset } from '../portal/mirror-dataset';
import { connectPortal, portalWorkDir } from '../portal/portal-session';
import {
  type CliCommand,
  DATA_DIR_HELP,
  UsageError,
  defineCommand,
  stringOption,
  KEEP_VERSIONS_HELP,
  KEEP_VERSIONS_OPTION,
  keepVersionsOption,
} from './command';
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

/** Exit status when some resources failed and the others were kept (docs/portal.md §CLI). */
export const SOME_FAILED = 3;

export function exitStatusOf(outcomes: readonly MirrorOutcome[]): number {
  return outcomes.some((o) => o.resources.some((r) => r.status === 'failed')) ? SOME_FAILED : 0;
}

export const mirrorCli: CliCommand = defineCommand({
  name: 'mirror',
  summary:
    "Brings a dataset of a CKAN portal here with its ids: DataStore resources with the portal's field types and rows, other tabular files through the importer, other formats as metadata. " +
    'Read-only until detached. One JSON line on stdout. When a Deskstore server holds the data directory, the mirror runs there (deskstore_mirror).',
  options: {
    data: { type: 'string' },
    dataset: { type: 'string' },
    resource: { type: 'string', multiple: true },
    token: { type: 'string' },
    full: { type: 'boolean' },
    ...KEEP_VERSIONS_OPTION,
    ...NETWORK_OPTIONS,
  },
  help: {
    data: { value: 'DIR', text: DATA_DIR_HELP },
    dataset: { value: 'NAME_OR_ID', text: 'The dataset, when SOURCE is the portal itself rather than a dataset or resource page.' },
    resource: { value: 'ID', text: 'Only this resource of the dataset. Default: all, or the one a resource page names.' },
    token: {
      value: 'TOKEN',
      text: "The portal's API token, for private datasets (or $DESKSTORE_PORTAL_TOKEN). Remembered for the portal, never printed.",
    },
    full: { text: 'Download everything again, even what has not changed.' },
    ...KEEP_VERSIONS_HELP,
    ...NETWORK_HELP,
  },
  positionals: {
    min: 1,
    max: 1,
    name: 'SOURCE',
    text: 'A dataset or resource page URL (also under /it/ or a path like /opendata/, whose API base is found by probing), or the portal with --dataset.',
  },
  notes: ['Exit status 3 when some resources failed (the others are kept).'],
  async run(values, positionals, env) {
    const sourceUrl = positionals[0]!;
    const dataDir = dataDirOption(values);
    const settings = networkSettings(values, stderrLine);
    const token = stringOption(values.token) ?? process.env.DESKSTORE_PORTAL_TOKEN;
    const outcome = await withLocalEngine(
      dataDir,
      'mirror',
      async (engine) => {
        const { client, source } = await connectPortal(dataDir, sourceUrl, env.version, settings, token);
        const dataset = stringOption(values.dataset) ?? source.dataset;
        if (!dataset) throw new UsageError(`${sourceUrl} names no dataset: give a dataset page URL or --dataset NAME`);
        const resources = Array.isArray(values.resource) ? values.resource.map(String) : source.resource ? [source.resource] : [];
        stderrLine(`portal ${client.base}: dataset ${dataset}`);
        return mirrorDataset(
          {
            engine,
            importWorker: env.here('./import-worker.js'),
            workDir: portalWorkDir(dataDir, true),
            ftsLanguage: 'english',
            maxDownloadBytes: 64 * 1024 ** 3,
            siteUrl: 'http://127.0.0.1',
            onItem: itemReporter(),
            log: stderrLine,
          },
          client,
          { dataset, resources, source: sourceUrl, full: values.full === true },
        );
      },
      async (server) => {
        noteIgnoredOptions(values, [...Object.keys(NETWORK_OPTIONS), ...Object.keys(KEEP_VERSIONS_OPTION)]);
        const dataset = stringOption(values.dataset);
        const started = await server.call('deskstore_mirror', {
          url: sourceUrl,
          ...(dataset ? { dataset } : {}),
          resources: Array.isArray(values.resource) ? values.resource.map(String) : [],
          ...(token ? { token } : {}),
          full: values.full === true,
        });
        const [mirrored] = (await followPortalJob(server, started)).result as MirrorOutcome[];
        if (!mirrored) throw new Error(`the mirror of ${sourceUrl} answered no dataset`);
        return mirrored;
      },
      keepVersionsOption(values),
    );
    for (const r of outcome.resources) stderrLine(`${r.name || r.resource_id}: ${r.status}${r.reason ? ` (${r.reason})` : ''}`);
    // Measured from process start, as import reports it (npm run bench reads this line).
    stderrLine(
      `mirror done after ${(performance.now() / 1000).toFixed(2)} s, peak memory ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
    process.exitCode = exitStatusOf([outcome]);
  },
});
