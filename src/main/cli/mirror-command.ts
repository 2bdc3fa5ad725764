import type { MirrorOutcome } from '../../shared/portal';
import { mirrorDataset } from '../portal/mirror-dataset';
import { connectPortal, portalWorkDir } from '../portal/portal-session';
import { type CliCommand, UsageError, stringOption } from './command';
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

/** Exit status when some resources failed and the others were kept (docs/portal.md §CLI). */
export const SOME_FAILED = 3;

export function exitStatusOf(outcomes: readonly MirrorOutcome[]): number {
  return outcomes.some((o) => o.resources.some((r) => r.status === 'failed')) ? SOME_FAILED : 0;
}

export const mirrorCli: CliCommand = {
  name: 'mirror',
  usage: `deskstore mirror SOURCE [--data DIR] [--dataset NAME_OR_ID] [--resource ID ...] [--token T] [--full]
                   ${NETWORK_USAGE}
      SOURCE: a dataset or resource page URL, or a portal URL with --dataset`,
  options: {
    data: { type: 'string' },
    dataset: { type: 'string' },
    resource: { type: 'string', multiple: true },
    token: { type: 'string' },
    full: { type: 'boolean' },
    ...NETWORK_OPTIONS,
  },
  positionals: { min: 1, max: 1, name: 'SOURCE' },
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
        noteIgnoredOptions(values, Object.keys(NETWORK_OPTIONS));
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
    );
    for (const r of outcome.resources) stderrLine(`${r.name || r.resource_id}: ${r.status}${r.reason ? ` (${r.reason})` : ''}`);
    // Measured from process start, as import reports it (npm run bench reads this line).
    stderrLine(
      `mirror done after ${(performance.now() / 1000).toFixed(2)} s, peak memory ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
    process.exitCode = exitStatusOf([outcome]);
  },
};
