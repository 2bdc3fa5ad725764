import { useTranslation } from 'react-i18next';
import type { ActionParams } from '../../../../shared/wire/actions';
import { paramPairs } from '../../api/urls';
import { SidePanel } from '../../components/SidePanel';
import { ActionCall } from '../api-panel/ActionCall';

interface Props {
  readonly params: ActionParams<'deskstore_changes'>;
  readonly onClose: () => void;
}

/** The Changes view as a deskstore_changes call: its URL, its parameters and code to copy. */
export function ChangesApiPanel({ params, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <SidePanel title={t('apiPanel.title')} testId="api-panel" className="api-panel" onClose={onClose}>
      <p className="small">{t('changes.apiIntro')}</p>
      <ActionCall action="deskstore_changes" pairs={paramPairs(params)}>
        <p className="muted small">{t('changes.apiExtensions')}</p>
      </ActionCall>
    </SidePanel>
  );
}
