import type { CliCommand, OptionHelp } from './command';

/**
 * The CLI's help, generated from the command table (cli/commands.ts): `deskstore --help`,
 * `deskstore help COMMAND` and the reference in docs/cli.md (`deskstore help --markdown`,
 * checked against the table by test/unit/cli-reference.test.ts). Every option a command
 * parses is listed, with what it says of itself; nothing is written twice.
 */

/** Variables the commands read, for the reference. */
const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ['DESKSTORE_DATA', 'The data directory when --data is not given (also for `npm start` and the desktop app).'],
  [
    'DESKSTORE_TOKEN',
    "serve: the API token to require. import, mirror, sync, push, rename-columns: the running server's token, when it is not DIR/api-token.",
  ],
  ['DESKSTORE_PORTAL_TOKEN', "mirror, push: the portal's API token when --token is not given."],
  ['HTTP_PROXY, HTTPS_PROXY, NO_PROXY', 'mirror, sync, push: the proxy to reach portals through, and the hosts to reach directly.'],
  ['DESKSTORE_DEBUG', 'Print the stack trace of a failure that is otherwise told in one sentence.'],
];

const EXIT_STATUSES: readonly (readonly [string, string])[] = [
  ['0', 'Done.'],
  [
    '1',
    'Failed; stderr says why in one sentence (a missing file, a busy port, a refused value, a data directory in use by another import).',
  ],
  ['2', 'The command was called wrongly (an unknown option, a missing argument): the usage follows.'],
  ['3', 'mirror, sync: some resources failed, the others were kept.'],
];

function optionSyntax(name: string, help: OptionHelp, multiple: boolean): string {
  const flag = help.value ? `--${name} ${help.value}` : `--${name}`;
  const repeated = multiple ? `${flag} ...` : flag;
  return help.required ? repeated : `[${repeated}]`;
}

/** The options of a command with their help, in the table's order. */
function optionsOf(command: CliCommand): { name: string; help: OptionHelp; multiple: boolean }[] {
  return Object.entries(command.options).map(([name, spec]) => ({ name, help: command.help[name]!, multiple: spec.multiple === true }));
}

/** The words of a usage line: `deskstore`, the command, its argument, then each option as one piece. */
function usageWords(command: CliCommand): string[] {
  const positional = command.positionals ? [command.positionals.name] : [];
  const options = optionsOf(command).map((o) => optionSyntax(o.name, o.help, o.multiple));
  // required options first, as they are read
  const required = options.filter((o) => !o.startsWith('['));
  return ['deskstore', command.name, ...positional, ...required, ...options.filter((o) => o.startsWith('['))];
}

/** `deskstore import FILE [--data DIR] … [--type COLUMN=TYPE ...]`, from the table. */
export function usageLine(command: CliCommand): string {
  return usageWords(command).join(' ');
}

/** Pieces joined into lines of at most `width` characters, every line after the first indented by `indent`. */
function wrap(pieces: readonly string[], width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    if (line && line.length + 1 + piece.length > width) {
      lines.push(line);
      line = piece;
    } else {
      line = line ? `${line} ${piece}` : piece;
    }
  }
  if (line) lines.push(line);
  return lines.join(`\n${indent}`);
}

const words = (text: string): string[] => text.split(/\s+/);

/** `deskstore --help`: every command's usage, and where to read more. */
export function overviewText(commands: readonly CliCommand[]): string {
  return [
    'Usage:',
    ...commands.map((c) => `  ${wrap(usageWords(c), 96, '      ')}`),
    '',
    'deskstore help COMMAND (or deskstore COMMAND --help) says what each option does; the same reference is docs/cli.md.',
  ].join('\n');
}

/** `deskstore help COMMAND`. */
export function commandText(command: CliCommand): string {
  const options = optionsOf(command);
  const width = Math.max(
    ...options.map((o) => `--${o.name}${o.help.value ? ` ${o.help.value}` : ''}`.length),
    command.positionals?.name.length ?? 0,
  );
  const entry = (left: string, text: string) => `  ${left.padEnd(width)}  ${wrap(words(text), 100 - width - 4, ' '.repeat(width + 4))}`;
  return [
    wrap(usageWords(command), 100, '      '),
    '',
    wrap(words(command.summary), 100, ''),
    '',
    ...(command.positionals ? [entry(command.positionals.name, command.positionals.text)] : []),
    ...options.map((o) =>
      entry(`--${o.name}${o.help.value ? ` ${o.help.value}` : ''}`, `${o.help.text}${o.multiple ? ' (repeatable)' : ''}`),
    ),
    ...(command.notes?.length ? ['', ...command.notes.map((n) => wrap(words(n), 100, ''))] : []),
  ].join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** docs/cli.md. */
export function referenceMarkdown(commands: readonly CliCommand[]): string {
  const out: string[] = [
    '# The `deskstore` command line',
    '',
    '<!-- Generated from the command table (src/main/cli/commands.ts) by `npm run docs:cli`;',
    '     test/unit/cli-reference.test.ts fails when this file and the table differ. Do not edit by hand. -->',
    '',
    'Every command and option, as `deskstore --help` and `deskstore help COMMAND` print them. Run it as',
    '`node out/main/cli.js COMMAND …` after `npm run build` (or `npm start`, which builds), or as',
    '`deskstore COMMAND …` once `npm link` has put it on the PATH.',
    '',
    commands.map((c) => `[${c.name}](#deskstore-${c.name})`).join(' · '),
    '',
  ];
  for (const command of commands) {
    out.push(`## deskstore ${command.name}`, '', command.summary, '', '```text', usageLine(command), '```', '');
    out.push('| argument or option | what it does |', '|---|---|');
    if (command.positionals) out.push(`| \`${command.positionals.name}\` | ${cell(command.positionals.text)} |`);
    for (const o of optionsOf(command)) {
      const syntax = `--${o.name}${o.help.value ? ` ${o.help.value}` : ''}`;
      out.push(`| \`${syntax}\` | ${cell(o.help.text)}${o.multiple ? ' Repeatable.' : ''}${o.help.required ? ' Required.' : ''} |`);
    }
    out.push('');
    for (const note of command.notes ?? []) out.push(note, '');
  }
  out.push('## Environment', '', '| variable | what it does |', '|---|---|');
  for (const [name, text] of ENVIRONMENT) out.push(`| \`${name}\` | ${cell(text)} |`);
  out.push('', '## Exit status', '', '| status | meaning |', '|---|---|');
  for (const [status, text] of EXIT_STATUSES) out.push(`| ${status} | ${cell(text)} |`);
  out.push('');
  return out.join('\n');
}
