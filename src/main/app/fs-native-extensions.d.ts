// Minimal typings for the part of `fs-native-extensions` (Holepunch's prebuilt Node-API addon
// for OS file locks) that data-dir-lock.ts uses. The package ships no types of its own.
declare module 'fs-native-extensions' {
  /** An exclusive lock on the whole file (shared with `{ shared: true }`); false when another process holds it. */
  export function tryLock(fd: number, opts?: { shared?: boolean }): boolean;
  export function unlock(fd: number): void;
}
