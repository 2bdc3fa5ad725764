import { useTranslation } from 'react-i18next';
import type { ImportPreviewResult, ImportType } from '../../../../shared/wire/import';
import type { Message } from '../../../../shared/messages';
import { isImportType } from '../../../../shared/wire/import';
import { MessageText } from '../../components/MessageText';
import { TYPE_CHOICES, typeKey } from './type-names';

/** A forced type's first unreadable value (`import.type.forced_problem`), in the user's language. */
function TypeProblem({ problem }: { readonly problem: Message }) {
  const { t } = useTranslation();
  const { value, type } = problem.params ?? {};
  return problem.code === 'import.type.forced_problem' && isImportType(type) ? (
    <p className="type-problem" role="note">
      {t('import.preview.problem', { value: String(value), type: t(typeKey(type)) })}
    </p>
  ) : (
    <MessageText as="p" className="type-problem" message={problem} />
  );
}

interface Props {
  readonly preview: ImportPreviewResult;
  readonly busy: boolean;
  readonly onType: (columnId: string, type: ImportType | null) => void;
  readonly forcedTypes: Readonly<Record<string, ImportType>>;
}

/**
 * The first rows as the import will read them, one type picker per column with the reason
 * for the detected type (and, for a forced type, the values it cannot read).
 */
export function PreviewTable({ preview, busy, onType, forcedTypes }: Props) {
  const { t } = useTranslation();
  return (
    <div className="preview-wrap" aria-busy={busy}>
      <table className="preview" data-testid="preview-table">
        <caption className="visually-hidden">{t('import.preview.caption', { count: preview.rows.length })}</caption>
        <thead>
          <tr>
            <th scope="col" className="row-number">
              #
            </th>
            {preview.columns.map((column) => (
              <th key={column.id} scope="col" className="preview-col">
                <span className="col-label" title={column.label}>
                  {column.label}
                </span>
                {column.id !== column.label.trim() && (
                  <span className="col-id" title={column.id}>
                    {column.id}
                  </span>
                )}
              </th>
            ))}
          </tr>
          <tr className="type-row">
            <th scope="row" className="row-number">
              <span className="visually-hidden">{t('import.preview.typeRow')}</span>
            </th>
            {preview.columns.map((column) => {
              const selectId = `type-${column.id}`;
              return (
                <td key={column.id}>
                  <select
                    aria-label={t('import.preview.typeOf', { column: column.id })}
                    value={column.type}
                    data-testid="type-select"
                    data-column={column.id}
                    id={selectId}
                    className={column.forced ? 'type-forced' : undefined}
                    onChange={(e) => {
                      const type = e.target.value as ImportType;
                      onType(column.id, type);
                    }}
                  >
                    {TYPE_CHOICES.map((type) => (
                      <option key={type} value={type}>
                        {t(typeKey(type))}
                      </option>
                    ))}
                  </select>
                  {forcedTypes[column.id] && (
                    <button type="button" className="link-button small" onClick={() => onType(column.id, null)}>
                      {t('import.preview.autoType')}
                    </button>
                  )}
                  <MessageText as="p" className="type-reason" message={column.reason} withTitle />
                  {column.problem && <TypeProblem problem={column.problem} />}
                </td>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {preview.rows.map((row, i) => (
            <tr key={i}>
              <th scope="row" className="row-number">
                {i + 1}
              </th>
              {preview.columns.map((column, c) => {
                const value = row[c];
                return (
                  <td key={column.id} className={value === null || value === undefined ? 'null' : undefined}>
                    {value ?? ''}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
