import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResourceVersion } from '../../../../shared/wire/versions';
import { useLocale } from '../../hooks/use-locale';
import { versionLabel } from './change-words';

interface Props {
  readonly versions: readonly ResourceVersion[];
  readonly from: number;
  readonly to: number;
  readonly onChange: (from: number, to: number) => void;
}

/** Which two kept versions are compared: each a select of every version kept, newest first. */
export function VersionPicker({ versions, from, to, onChange }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const options = versions.map((v) => (
    <option key={v.version} value={v.version}>
      {versionLabel(t, v, locale)}
    </option>
  ));
  return (
    <fieldset className="version-picker" data-testid="version-picker">
      <legend className="visually-hidden">{t('changes.pickerLegend')}</legend>
      <label htmlFor={`${id}-from`}>{t('changes.fromVersion')}</label>
      <select id={`${id}-from`} value={from} onChange={(e) => onChange(Number(e.target.value), to)} data-testid="version-from">
        {options}
      </select>
      <label htmlFor={`${id}-to`}>{t('changes.toVersion')}</label>
      <select id={`${id}-to`} value={to} onChange={(e) => onChange(from, Number(e.target.value))} data-testid="version-to">
        {options}
      </select>
    </fieldset>
  );
}
