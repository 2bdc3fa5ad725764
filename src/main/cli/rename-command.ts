import { type CliCommand, DATA_DIR_HELP, KEEP_VERSIONS_HELP, KEEP_VERSIONS_OPTION, UsageError, defineCommand, keepVersionsOption } from './command';
import { dataDirOption, noteIgnoredOptions, stderrLine, withLocalEngine } from './portal-cli';
import type { RenameFieldsResult } from '../../shared/wire/actions';

/** `--column OLD --to NEW`, repeated: the pairs in the order given. */
function renamesOf(columns: unknown, targets: unknown): Record<string, string> {
  const from = Array.isArray(columns) ? columns.map(String) : [];
  const to = Array.isArray(targets) ? targets.map(String) : [];
  if (from.length === 0) throw new UsageError('rename-columns needs at least one --column OLD --to NEW');
  if (from.length !== to.length) throw new UsageError('rename-columns needs one --to NEW for each --column OLD');
  const renames: Record<string, string> = {};
  from.forEach((name, i) => {
    if (Object.hasOwn(renames, name)) throw new UsageError(`--column ${JSON.stringify(name)} is given twice`);
    renames[name] = to[i]!;
  });
  return renames;
}

export const renameCli: CliCommand = defineCommand({
  name: 'rename-columns',
  summary:
    "Renames columns of a local table (e.g. to your own names before a push, instead of the portal's 63-byte cuts): publishes the same rows under the new names as a new version. " +
    'One JSON line on stdout (deskstore_rename_fields\' result). When a Deskstore server holds the data directory, the rename runs there (deskstore_rename_fields).',
  options: {
    data: { type: 'string' },
    column: { type: 'string', multiple: true },
    to: { type: 'string', multiple: true },
    ...KEEP_VERSIONS_OPTION,
  },
  help: {
    data: { value: 'DIR', text: DATA_DIR_HELP },
    column: { value: 'OLD', text: 'A column to rename; repeat --column OLD --to NEW for several.', required: true },
    to: {
      value: 'NEW',
      text: "Its new name: datastore_create's rules (not empty, no leading `_`, no `\"`), at most 63 bytes, unique in the table.",
      required: true,
    },
    ...KEEP_VERSIONS_HELP,
  },
  positionals: { min: 1, max: 1, name: 'RESOURCE_ID', text: 'The local resource whose columns are renamed.' },
  async run(values, positionals) {
    const dataDir = dataDirOption(values);
    const resourceId = positionals[0]!;
    const renames = renamesOf(values.column, values.to);
    const result: RenameFieldsResult = await withLocalEngine(
      dataDir,
      'rename',
      async (engine) => {
        const outcome = await engine.renameFields({ resourceId, renames });
        return { resource_id: outcome.resourceId, fields: outcome.fields, renamed: outcome.renamed, version: outcome.version };
      },
      async (server) => {
        noteIgnoredOptions(values, Object.keys(KEEP_VERSIONS_OPTION));
        return server.call('deskstore_rename_fields', { resource_id: resourceId, fields: renames });
      },
      keepVersionsOption(values),
    );
    for (const { from, to } of result.renamed) stderrLine(`column "${from}" is now "${to}"`);
    if (result.version === null) stderrLine('no name changed: no new version');
    else stderrLine(`version ${result.version} published`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  },
});
