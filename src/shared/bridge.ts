/**
 * The native extras the Electron preload offers the UI (`window.deskstore`). Everything else
 * goes through the HTTP API, so the UI also works in a plain browser, where this is absent.
 * The preload object is checked against this type with `satisfies`, so drift fails tsc.
 */
/**
 * A file the user picked in the native dialog. The page gets a one-time handle for it, never its
 * path: the server reads only files granted this way or inside folders the user allowed.
 */
export interface PickedFile {
  /** Sent back as `deskstore_local_file` to preview and load the file. */
  readonly handle: string;
  readonly name: string;
  readonly size: number;
}

export interface BridgeApi {
  /** The native "Open file" dialog for CSV/TSV files; null when cancelled. */
  pickImportFile(): Promise<PickedFile | null>;
  /** Shows the data directory in the system file manager. */
  revealDataFolder(): Promise<void>;
}

/** IPC channel names, in one place (electron/fiddle style). */
export const BRIDGE_CHANNELS = {
  pickImportFile: 'deskstore:pick-import-file',
  revealDataFolder: 'deskstore:reveal-data-folder',
} as const;

declare global {
  interface Window {
    deskstore?: BridgeApi;
  }
}
