/**
 * Who may use the native bridge (docs/security.md, "Electron"): only the app's own page, in the
 * window's top frame. An IPC message carries the frame that sent it; a frame of another origin
 * (a page the window was somehow navigated to, an embedded frame) gets nothing. Kept free of
 * `electron` so it can be tested under plain Node.
 */
export interface SenderFrame {
  readonly url: string;
  /** The frame is the window's top frame, not an embedded one. */
  readonly isMainFrame: boolean;
}

export function isTrustedSender(frame: SenderFrame | null | undefined, appOrigin: string): boolean {
  if (!frame?.isMainFrame) return false;
  try {
    return new URL(frame.url).origin === appOrigin;
  } catch {
    return false;
  }
}
