/**
 * Every Message code the portal features (and the changes between versions, which follow a
 * sync) can send has en and it strings (`messages.<code>`), so the UI never falls back to
 * English for them. The codes are read from the source.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/deskstore-process';

const FILES = [
  ...readdirSync(join(ROOT, 'src/main/portal')).map((f) => join('src/main/portal', f)),
  'src/main/engine/catalogue/mirror-guard.ts',
  'src/main/jobs/portal-jobs.ts',
  ...readdirSync(join(ROOT, 'src/main/engine/versions')).map((f) => join('src/main/engine/versions', f)),
  'src/main/engine/catalogue/sync-schedule.ts',
];

function codes(): string[] {
  const found = new Set<string>();
  for (const file of FILES) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/(?:message\(\s*|code: )[`'"]((?:portal|mirror|push|changes)\.[a-z_.]*[a-z])[`'"]/g)) found.add(m[1]!);
    // checkMirrorTarget words its conflicts by parameter: `mirror.conflict_${param}`
    if (text.includes('mirror.conflict_${param}')) for (const p of ['id', 'name', 'resource_id']) found.add(`mirror.conflict_${p}`);
    // portalRefusal picks one of these by CKAN's __type
    for (const m of text.matchAll(/'(portal\.(?:refused_[a-z_]+|http_status))'/g)) found.add(m[1]!);
  }
  return [...found].sort();
}

const en: unknown = JSON.parse(readFileSync(join(ROOT, 'src/renderer/src/i18n/en.json'), 'utf8'));
const it_: unknown = JSON.parse(readFileSync(join(ROOT, 'src/renderer/src/i18n/it.json'), 'utf8'));

const lookup = (tree: unknown, code: string): unknown =>
  ['messages', ...code.split('.')].reduce<unknown>(
    (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    tree,
  );

describe('portal message codes', () => {
  it('are found in the source', () => {
    expect(codes()).toEqual(
      expect.arrayContaining([
        'portal.unreachable',
        'mirror.read_only',
        'mirror.conflict_name',
        'push.count_mismatch',
        'changes.version_not_kept',
        'changes.no_earlier_version',
        'changes.key_not_in_both',
        'changes.not_a_mirror',
      ]),
    );
  });

  it('each have an English and an Italian string', () => {
    for (const code of codes()) {
      expect(typeof lookup(en, code), `en: messages.${code}`).toBe('string');
      expect(typeof lookup(it_, code), `it: messages.${code}`).toBe('string');
    }
  });
});
