import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startDeskstore } from '../app/deskstore-app';
import { ensureSampleResource } from '../app/sample-resource';

export interface ServeArgs {
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly token?: string;
  readonly sample: boolean;
}

export interface BuiltPaths {
  readonly engineWorker: URL;
  readonly importWorker: URL;
  readonly rendererDir: URL;
  readonly sampleFile: string;
  readonly version: string;
}

/**
 * `deskstore serve`: one line on stdout once requests are accepted (other tools wait for it);
 * everything else on stderr. SIGINT/SIGTERM close the server and engine, then exit 0.
 */
export async function serveCommand(args: ServeArgs, paths: BuiltPaths): Promise<void> {
  const rendererDir = fileURLToPath(paths.rendererDir);
  const app = await startDeskstore({
    dataDir: args.dataDir,
    host: args.host,
    port: args.port,
    ...(args.token ? { token: args.token } : {}),
    ...(existsSync(rendererDir) ? { staticDir: rendererDir } : {}),
    workers: { engine: paths.engineWorker, importer: paths.importWorker },
    version: paths.version,
    logger: {
      request: () => {},
      error: (message, error) => console.error(message, error ?? ''),
    },
  });
  if (args.sample) await ensureSampleResource(app.engine.api, args.dataDir, paths.sampleFile, paths.importWorker);
  if (app.tokenFile) console.error(`API token: ${app.tokenFile} (send it as the Authorization header to write)`);
  process.stdout.write(`Deskstore listening on ${app.url}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: closing Deskstore`);
    app.close().then(() => process.exit(0), (err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
