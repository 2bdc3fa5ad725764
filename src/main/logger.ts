/**
 * How the engine and the server report problems that are not any request's answer (a damaged
 * file rebuilt, a checkpoint that failed, leftovers that could not be removed). It is injected,
 * so the CLI writes to stderr while the Electron shell can show them; the engine worker sends
 * them to the main thread as messages (engine-protocol.ts).
 */
export interface Logger {
  /** Something was wrong and was handled: the user may want to know. */
  warn(message: string): void;
  /** Something failed. `error` may hold a stack. */
  error(message: string, error?: unknown): void;
}

export const consoleLogger: Logger = {
  warn: (message) => console.error(`deskstore: ${message}`),
  error: (message, error) => console.error(`deskstore: ${message}`, error ?? ''),
};
