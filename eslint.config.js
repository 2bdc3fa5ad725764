import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
    rules: { 'no-restricted-imports': ['error', { paths: ['electron', 'sql.js'], patterns: ['**/engine/*', '!**/engine/engine-api'] }] },
  },
  {
    files: ['src/main/engine/**/*.ts', 'src/main/importer/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['electron'], patterns: ['**/server/*', '**/server'] }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../main/*', '../renderer/*', '../preload/*'] }] },
  },
);
