/**
 * Where an imported resource's data came from: kept in the catalogue by the engine and sent
 * to the UI as the resource's `deskstore.source`. One definition, so the two cannot drift.
 */
export interface RenamedColumn {
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

export interface ImportSource {
  readonly file: string;
  readonly encoding: string;
  readonly delimiter: string;
  readonly skipLines: number;
  readonly bytes: number;
  readonly importedAt: string;
  readonly renamedColumns?: readonly RenamedColumn[];
}
