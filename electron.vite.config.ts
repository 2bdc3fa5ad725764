import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Six Node entries share one output folder so that each can find its siblings at run time
// (`new URL('./engine-worker.js', import.meta.url)`): the Electron root, the headless CLI and
// the four worker entries. Only `index` may import `electron`.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          cli: resolve(import.meta.dirname, 'src/main/cli.ts'),
          'engine-worker': resolve(import.meta.dirname, 'src/main/engine/engine-worker.ts'),
          'import-worker': resolve(import.meta.dirname, 'src/main/importer/import-worker.ts'),
          'sql-worker': resolve(import.meta.dirname, 'src/main/engine/sql/sql-worker.ts'),
          'changes-worker': resolve(import.meta.dirname, 'src/main/engine/versions/changes-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        // A sandboxed preload cannot be an ES module.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      minify: true,
      rollupOptions: { input: resolve(import.meta.dirname, 'src/renderer/index.html') },
    },
  },
});
