/**
 * Readable contrast: the colour pairs the stylesheet uses for text meet WCAG AA (4.5:1 for
 * body text). The colours are read from app.css itself, so a change there is checked.
 */
import { describe, expect, it } from 'vitest';
// Vitest empties CSS imports (even `?raw`), so the file is read from disk. This world has no
// Node types (it is the renderer's), hence the narrow view of process.getBuiltinModule.
const node = (globalThis as unknown as { process: { getBuiltinModule(id: 'node:fs'): { readFileSync(p: URL, e: 'utf8'): string } } })
  .process;
const css = node.getBuiltinModule('node:fs').readFileSync(new URL('../../../src/renderer/src/styles/app.css', import.meta.url), 'utf8');

function variables(text: string): Map<string, string> {
  const root = /:root\s*{([^}]*)}/.exec(text)?.[1] ?? '';
  return new Map([...root.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})/g)].map((m) => [m[1]!, m[2]!]));
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('colour contrast', () => {
  const v = variables(css);
  const color = (name: string) => {
    const value = v.get(name);
    if (!value) throw new Error(`--${name} is not a hex colour in :root`);
    return value;
  };

  it('reads the palette', () => {
    expect(v.size).toBeGreaterThan(10);
  });

  it.each([
    ['text', 'bg'],
    ['text', 'surface'],
    ['muted', 'bg'],
    ['muted', 'surface'],
    ['muted', 'row-odd'],
    ['primary', 'surface'],
    ['primary', 'bg'],
    ['danger', 'surface'],
    ['danger', 'danger-soft'],
    ['ok', 'surface'],
    ['ok', 'ok-soft'],
    ['warn', 'warn-soft'],
    ['primary-dark', 'primary-soft'],
    ['text', 'danger-soft'],
    ['text', 'warn-soft'],
  ])('%s on %s is at least 4.5:1', (fg, bg) => {
    expect(contrast(color(fg), color(bg))).toBeGreaterThanOrEqual(4.5);
  });

  it('white text on the filled buttons and the header', () => {
    for (const bg of ['primary', 'primary-dark', 'danger', 'ok']) expect(contrast('#ffffff', color(bg))).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#ffffff', '#17212f')).toBeGreaterThanOrEqual(4.5);
    // type badges and code blocks
    expect(contrast('#3b4452', '#dde3ea')).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#e8edf3', '#16202c')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('colour contrast in dark mode (dark.css)', () => {
  const dark = node.getBuiltinModule('node:fs').readFileSync(new URL('../../../src/renderer/src/styles/dark.css', import.meta.url), 'utf8');
  const block = /@media \(prefers-color-scheme: dark\)\s*{([\s\S]*)}\s*$/.exec(dark)?.[1] ?? '';
  const v = variables(block);
  const color = (name: string) => {
    const value = v.get(name);
    if (!value) throw new Error(`--${name} is not a hex colour in the dark :root`);
    return value;
  };

  it.each([
    ['text', 'bg'],
    ['text', 'surface'],
    ['text', 'surface-2'],
    ['muted', 'bg'],
    ['muted', 'surface'],
    ['muted', 'row-odd'],
    ['primary', 'surface'],
    ['primary', 'bg'],
    ['danger', 'surface'],
    ['danger', 'danger-soft'],
    ['ok', 'surface'],
    ['ok', 'ok-soft'],
    ['warn', 'warn-soft'],
    ['primary-dark', 'primary-soft'],
    ['text', 'danger-soft'],
    ['text', 'warn-soft'],
    ['text', 'primary-soft'],
  ])('%s on %s is at least 4.5:1', (fg, bg) => {
    expect(contrast(color(fg), color(bg))).toBeGreaterThanOrEqual(4.5);
  });

  it('dark text on the filled buttons, badges, and bars and map outlines visible (3:1 for graphics)', () => {
    expect(contrast('#0d1b33', color('primary'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#2b0b09', color('danger'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#d6dce4', '#343d49')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(color('bar'), color('surface'))).toBeGreaterThanOrEqual(3);
    expect(contrast(color('map-border'), color('map-land'))).toBeGreaterThanOrEqual(1.5);
  });
});
