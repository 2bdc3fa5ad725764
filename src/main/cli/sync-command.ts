import type { MirrorOutcome } from '../../shared/portal';
import { portalWorkDir, syncMirrors, syncSummary } from '../portal/portal-session';
import { type CliCommand, DATA_DIR_HELP, KEEP_VERSIONS_HELP, KEEP_VERSIONS_OPTION, defineCommand, keepVersionsOption } from './command';
import { exitStatusOf } from './mirror-command';
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

export const syncCli: CliCommand = defineCommand({
  name: 'sync',
  summary:
    'Re-checks mirrored datasets against their portals and downloads only what changed, each changed resource rebuilt aside and swapped in. ' +
    'One JSON line per dataset on stdout, then a summary line. When a Deskstore server holds the data directory, the sync runs there (deskstore_sync).',
  options: {
    data: { type: 'string' },
    dataset: { type: 'string', multiple: true },
    full: { type: 'boolean' },
    ...KEEP_VERSIONS_OPTION,
    ...NETWORK_OPTIONS,
  },
  help: {
    data: { value: 'DIR', text: DATA_DIR_HELP },
    dataset: { value: 'NAME_OR_ID', text: 'Only this mirrored dataset. Default: every mirror.' },
    full: { text: 'Download every resource again, changed or not.' },
    ...KEEP_VERSIONS_HELP,
    ...NETWORK_HELP,
  },
  notes: ['Exit status 3 when some resources failed (the others are kept).'],
  async run(values, _positionals, env) {
    const dataDir = dataDirOption(values);
    const settings = networkSettings(values, stderrLine);
    const only = Array.isArray(values.dataset) ? values.dataset.map(String) : [];
    const report = await withLocalEngine(
      dataDir,
      'sync',
      (engine) =>
        syncMirrors(
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
          dataDir,
          env.version,
          settings,
          only,
          values.full === true,
          (outcome) => process.stdout.write(`${JSON.stringify(outcome)}\n`),
        ),
      async (server) => {
        noteIgnoredOptions(values, [...Object.keys(NETWORK_OPTIONS), ...Object.keys(KEEP_VERSIONS_OPTION)]);
        const job = await followPortalJob(server, await server.call('deskstore_sync', { datasets: only, full: values.full === true }));
        const lines = (job.result ?? []) as MirrorOutcome[];
        for (const outcome of lines) process.stdout.write(`${JSON.stringify(outcome)}\n`);
        return { lines, summary: syncSummary(lines) };
      },
      keepVersionsOption(values),
    );
    process.stdout.write(`${JSON.stringify(report.summary)}\n`);
    process.exitCode = exitStatusOf(report.lines);
  },
});
