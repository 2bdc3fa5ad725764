/** `status_show`, as CKAN answers it plus Deskstore's version. */
export interface StatusShow {
  readonly site_title: string;
  readonly site_description?: string;
  readonly site_url?: string;
  readonly error_emails_to?: string | null;
  readonly locale_default?: string;
  readonly extensions?: readonly string[];
  readonly ckan_version?: string;
  readonly deskstore_version?: string;
}
