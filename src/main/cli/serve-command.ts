import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startDeskstore, type RunningDeskstore } from '../app/deskstore-app';
import { ensureSampleResource } from '../app/sample-resource';

export interface ServeArgs {
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly token?: string;
  readonly sample: boolean;
  readonly maxUploadBytes?: number;
  readonly sqlTimeoutMs?: number;
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
  // Signal handlers first: a supervisor may stop us the moment the listening line appears.
  let app: RunningDeskstore | null = null;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: closing Deskstore`);
    const closing = app ? app.close() : Promise.resolve();
    closing.then(() => process.exit(0), (err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const rendererDir = fileURLToPath(paths.rendererDir);
  app = await startDeskstore({
    dataDir: args.dataDir,
    host: args.host,
    port: args.port,
    ...(args.token ? { token: args.token } : {}),
    ...(existsSync(rendererDir) ? { staticDir: rendererDir } : {}),
    workers: { engine: paths.engineWorker, importer: paths.importWorker },
    version: paths.version,
    ...(args.maxUploadBytes ? { maxUploadBytes: args.maxUploadBytes } : {}),
    ...(args.sqlTimeoutMs ? { sqlTimeoutMs: args.sqlTimeoutMs } : {}),
    logger: {
      request: () => {},
      error: (message, error) => console.error(message, error ?? ''),
    },
  });
  if (stopping) {
    await app.close();
    process.exit(0);
  }
  if (args.sample) await ensureSampleResource(app.engine.api, args.dataDir, paths.sampleFile, paths.importWorker);
  if (app.tokenFile) console.error(`API token: ${app.tokenFile} (send it as the Authorization header to write)`);
  process.stdout.write(`Deskstore listening on ${app.url}\n`);
}
