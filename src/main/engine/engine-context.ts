import type { Logger } from '../logger';
import type { Catalogue } from './catalogue/catalogue';
import type { TextSearchLanguage } from './fts';
import type { OpenResource } from './resources/open-resource';
import type { ResourceCache } from './resources/resource-cache';

/** What the engine's operations share: the catalogue, the open resources, the settings. */
export interface EngineContext {
  readonly dataDir: string;
  readonly catalogue: Catalogue;
  readonly cache: ResourceCache;
  readonly defaultFtsLanguage: TextSearchLanguage;
  readonly logger: Logger;
  /** The open table of a resource id or alias; NotFoundError when there is none. */
  openResource(idOrAlias: string): OpenResource;
  /** A generation number never used before for this resource (writes and imports race). */
  nextGeneration(resourceId: string): number;
  /** Called after every committed write: schedules a checkpoint when the journal grew. */
  afterWrite(resource: OpenResource): void;
}
