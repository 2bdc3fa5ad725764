import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickedFile } from '../../../../shared/bridge';
import { hasNativeBridge, pickImportFile } from '../../bridge';
import { IMPORT_ACCEPT } from '../../../../shared/import-formats';

interface Props {
  readonly disabled: boolean;
  readonly onFile: (file: File) => void;
  readonly onLocal: (picked: PickedFile) => void;
}

/**
 * The drop target (a drop anywhere on the window works too) and the "Choose a file" button:
 * the native dialog in the desktop app (the server then reads the file in place, no upload),
 * a file input in a browser.
 */
export function FileChooser({ disabled, onFile, onLocal }: Props) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const choose = () => {
    if (hasNativeBridge()) {
      void pickImportFile().then((picked) => {
        if (picked) onLocal(picked);
      });
    } else {
      input.current?.click();
    }
  };
  return (
    <div className="dropzone" data-testid="dropzone">
      <p className="dropzone-title">{t('import.choose.drop')}</p>
      <p className="muted">{t('import.choose.or')}</p>
      <button type="button" className="button button-primary" disabled={disabled} onClick={choose}>
        {t('import.choose.button')}
      </button>
      <input
        ref={input}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        accept={IMPORT_ACCEPT}
        data-testid="file-input"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = '';
        }}
      />
      <p className="muted small">{t('import.choose.formats')}</p>
    </div>
  );
}
