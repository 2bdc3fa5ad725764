import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CkanDict } from '../engine/engine-api';

/**
 * What a client without the token may see of the catalogue (docs/security.md, "local files"):
 * everything but paths on this machine. A resource whose `url` is a `file:` URL (kept as
 * metadata by a token holder, or from a catalogue written before local loads were stored by
 * name) shows only the file's name.
 */
export function withoutLocalPaths<Dict extends CkanDict>(resource: Dict): Dict {
  const url = resource.url;
  if (typeof url !== 'string' || !/^file:/i.test(url)) return resource;
  let name: string;
  try {
    name = basename(fileURLToPath(url));
  } catch {
    name = basename(url);
  }
  return { ...resource, url: name };
}

/** package_show / package_search results: each dataset's resources. */
export function packageWithoutLocalPaths<Dict extends CkanDict>(pkg: Dict): Dict {
  const resources = pkg.resources;
  return Array.isArray(resources) ? { ...pkg, resources: resources.map((r) => withoutLocalPaths(r as CkanDict)) } : pkg;
}
