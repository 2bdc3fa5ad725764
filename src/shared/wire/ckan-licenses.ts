/**
 * CKAN's default licence register (ckan/model/license.py, unchanged from 2.10 to 2.11) as
 * license_list returns it: every member a string, flags written "True" / "False".
 */
export interface CkanLicense {
  readonly domain_content: string;
  readonly id: string;
  readonly domain_data: string;
  readonly domain_software: string;
  readonly family: string;
  readonly is_generic: string;
  readonly od_conformance: string;
  readonly osd_conformance: string;
  readonly maintainer: string;
  readonly status: string;
  readonly url: string;
  readonly title: string;
}

export const DEFAULT_LICENSES: readonly CkanLicense[] = [
  { domain_content: 'False', id: 'notspecified', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'True', od_conformance: 'not reviewed', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: '', title: 'License not specified' },
  { domain_content: 'False', id: 'odc-pddl', domain_data: 'True', domain_software: 'False', family: '', is_generic: 'False', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: 'http://www.opendefinition.org/licenses/odc-pddl', title: 'Open Data Commons Public Domain Dedication and License (PDDL)' },
  { domain_content: 'False', id: 'odc-odbl', domain_data: 'True', domain_software: 'False', family: '', is_generic: 'False', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: 'http://www.opendefinition.org/licenses/odc-odbl', title: 'Open Data Commons Open Database License (ODbL)' },
  { domain_content: 'False', id: 'odc-by', domain_data: 'True', domain_software: 'False', family: '', is_generic: 'False', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: 'http://www.opendefinition.org/licenses/odc-by', title: 'Open Data Commons Attribution License' },
  { domain_content: 'True', id: 'cc-zero', domain_data: 'True', domain_software: 'False', family: '', is_generic: 'False', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: 'http://www.opendefinition.org/licenses/cc-zero', title: 'Creative Commons CCZero' },
  { domain_content: 'False', id: 'cc-by', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'False', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: 'http://www.opendefinition.org/licenses/cc-by', title: 'Creative Commons Attribution' },
  { domain_content: 'True', id: 'cc-by-sa', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'False', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: 'http://www.opendefinition.org/licenses/cc-by-sa', title: 'Creative Commons Attribution Share-Alike' },
  { domain_content: 'True', id: 'gfdl', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'False', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: 'http://www.opendefinition.org/licenses/gfdl', title: 'GNU Free Documentation License' },
  { domain_content: 'True', id: 'other-open', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'True', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: '', title: 'Other (Open)' },
  { domain_content: 'True', id: 'other-pd', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'True', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: '', title: 'Other (Public Domain)' },
  { domain_content: 'True', id: 'other-at', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'True', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: '', title: 'Other (Attribution)' },
  { domain_content: 'True', id: 'uk-ogl', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'False', od_conformance: 'approved', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: 'https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/', title: 'UK Open Government Licence (OGL)' },
  { domain_content: 'False', id: 'cc-nc', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'False', od_conformance: 'not reviewed', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: 'http://creativecommons.org/licenses/by-nc/2.0/', title: 'Creative Commons Non-Commercial (Any)' },
  { domain_content: 'False', id: 'other-nc', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'True', od_conformance: 'not reviewed', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: '', title: 'Other (Non-Commercial)' },
  { domain_content: 'False', id: 'other-closed', domain_data: 'False', domain_software: 'False', family: '', is_generic: 'True', od_conformance: 'not reviewed', osd_conformance: 'not reviewed', maintainer: '', status: 'active', url: '', title: 'Other (Not Open)' },
];
