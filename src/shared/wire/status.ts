import type { SqlFunctionPolicy } from '../ckan-sql-functions';

/** Deskstore's memory, in `status_show`: open resources are unloaded, least recently used first, past the budget. */
export interface DeskstoreMemory {
  /** What open resources may hold (`deskstore serve --memory-budget-mb`; default a quarter of the machine's memory). */
  readonly budget_bytes: number;
  /** What the open resources hold now, by Deskstore's estimate (columns, full-text index, SQLite tables). */
  readonly open_resources_bytes: number;
  readonly open_resources: number;
  /** Resources unloaded to stay within the budget since the server started (a reload brings one back). */
  readonly unloaded_for_budget: number;
  /** The server process's resident memory, everything included. */
  readonly process_rss_bytes: number;
}

/** `status_show`, as CKAN answers it plus Deskstore's version and memory. */
export interface StatusShow {
  readonly site_title: string;
  readonly site_description?: string;
  readonly site_url?: string;
  readonly error_emails_to?: string | null;
  readonly locale_default?: string;
  readonly extensions?: readonly string[];
  readonly ckan_version?: string;
  readonly deskstore_version?: string;
  readonly deskstore_memory?: DeskstoreMemory;
  /** Which functions datastore_search_sql may call (`deskstore serve --sql-functions`; CKAN's allow-list by default). */
  readonly deskstore_sql_functions?: SqlFunctionPolicy;
}
