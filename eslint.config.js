import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** src/main's areas from the top down (docs/architecture.md §2): an import may only go down. */
const LAYERS = ['cli', 'app', 'server', 'actions', 'jobs', 'portal', 'params', 'importer', 'engine'];
/** A relative import of src/main/<area> from inside src/main (`../area/x`, `../../area`). */
const areaImport = (areas) => `^(\\.\\./)+(${areas.join('|')})(/|$)`;
/** The areas above `area`, as one import pattern. */
const above = (area) => [
  { regex: areaImport(LAYERS.slice(0, LAYERS.indexOf(area))), message: `src/main/${area} imports only its own area and those below it.` },
];
/** Every engine module but its two doors. */
const ENGINE_DOORS = [
  {
    regex: '^(\\.\\./)+engine/(?!(engine-api|importer-api)$)',
    message: 'Outside the engine, import engine/engine-api (types, calls) or engine/importer-api (building blocks) only.',
  },
];

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/.work/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    // Type-aware rules: they need the TypeScript program, so only TypeScript files get them.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Tests read arbitrary JSON answers; `any` there keeps assertions readable.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Dependency rules (docs/architecture.md §2): only the Electron shell imports `electron`;
    // the HTTP layer never touches sql.js; engine and importer never reach the server.
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/index.ts', 'src/main/windows/**', 'src/main/ipc/**', 'src/main/security.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only the Electron shell imports electron.' }] }] },
  },
  {
    files: ['src/main/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['electron', 'sql.js'], patterns: [...above('server'), ...ENGINE_DOORS] }] },
  },
  // Each area imports only its own and the ones below it, and the engine through its two doors
  // (engine-api: types and calls; importer-api: building blocks for a version built outside the
  // engine worker). test/unit/import-layers.test.ts checks the same on the whole import graph.
  ...['actions', 'jobs', 'portal', 'params', 'importer'].map((area) => ({
    files: [`src/main/${area}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { paths: ['electron'], patterns: [...above(area), ...ENGINE_DOORS] }] },
  })),
  {
    files: ['src/main/engine/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['electron'], patterns: above('engine') }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../main/*', '../renderer/*', '../preload/*'] }] },
  },
);
