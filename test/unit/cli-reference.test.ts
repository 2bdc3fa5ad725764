/**
 * The CLI's reference cannot drift from what the commands parse: docs/cli.md is generated from
 * the command table (npm run docs:cli), and every `deskstore COMMAND --option` written in the
 * README and the docs is an option that command takes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/main/cli/commands';
import { referenceMarkdown, usageLine } from '../../src/main/cli/reference';
import { ROOT } from '../helpers/deskstore-process';

const documents = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Every command line written in a document: `deskstore sync --data DIR`, `node out/main/cli.js import …`, `npm start -- --port N`. */
function commandLines(text: string): { command: string; options: string[]; line: string }[] {
  const joined = text.replace(/\\\n\s*/g, ' ');
  const found: { command: string; options: string[]; line: string }[] = [];
  for (const line of joined.split('\n')) {
    const pattern = /(?:\bdeskstore|out\/main\/cli\.js|npm start --)\s+((?:serve|import|mirror|sync|push)\b)?([^`#|]*)/g;
    for (const match of line.matchAll(pattern)) {
      const command = match[0].startsWith('npm start') ? 'serve' : match[1];
      if (!command) continue;
      const options = [...(match[2] ?? '').matchAll(/(?:^|\s|\[)--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!);
      found.push({ command, options, line: line.trim().replace(/\s+/g, ' ') });
    }
  }
  return found;
}

describe('the CLI reference', () => {
  it('docs/cli.md is what the command table generates (npm run docs:cli writes it)', () => {
    expect(readFileSync(join(ROOT, 'docs/cli.md'), 'utf8')).toBe(referenceMarkdown(COMMANDS));
  });

  it('documents every option of every command', () => {
    const markdown = referenceMarkdown(COMMANDS);
    for (const command of COMMANDS) {
      expect(markdown).toContain(`## deskstore ${command.name}`);
      expect(markdown).toContain(usageLine(command));
      for (const name of Object.keys(command.options)) {
        expect(command.help[name]?.text, `${command.name} --${name}`).toBeTruthy();
        expect(usageLine(command)).toContain(`--${name}`);
      }
    }
  });

  it('every command line in the README and the docs uses options its command takes', () => {
    const lines = documents.flatMap((doc) => commandLines(readFileSync(join(ROOT, doc), 'utf8')).map((l) => ({ ...l, doc })));
    expect(lines.filter((l) => l.doc === 'README.md').length).toBeGreaterThan(3);
    const unknown = lines.flatMap((l) => {
      const command = COMMANDS.find((c) => c.name === l.command)!;
      return l.options.filter((o) => !Object.hasOwn(command.options, o)).map((o) => `${l.doc}: ${l.command} --${o} in «${l.line}»`);
    });
    expect(unknown).toEqual([]);
  });

  it('finds the options of a documented command line, continuation lines included', () => {
    expect(commandLines('deskstore import FILE --data D \\\n  --package p # --not-this')).toEqual([
      { command: 'import', options: ['data', 'package'], line: 'deskstore import FILE --data D --package p # --not-this' },
    ]);
    expect(commandLines('`npm start -- --port 8765 --data ~/d`').map((l) => [l.command, l.options])).toEqual([['serve', ['port', 'data']]]);
  });
});
