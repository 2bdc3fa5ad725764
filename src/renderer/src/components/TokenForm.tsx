import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkToken } from '../api/client';
import { setToken } from '../api/token';
import { useToken } from '../hooks/use-token';
import { ErrorNotice } from './ErrorNotice';

/**
 * Without a token the UI only reads. The token is the `api-token` file in the data folder;
 * `deskstore serve` prints its path on stderr. It is checked before it is kept.
 */
export function TokenForm() {
  const { t } = useTranslation();
  const token = useToken();
  const id = useId();
  const [value, setValue] = useState('');
  const [state, setState] = useState<'idle' | 'checking' | 'wrong'>('idle');
  const [error, setError] = useState<unknown>(null);
  if (token) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const candidate = value.trim();
    if (!candidate) return;
    setState('checking');
    setError(null);
    checkToken(candidate).then(
      (ok) => {
        if (ok) {
          setToken(candidate);
          setValue('');
          setState('idle');
        } else setState('wrong');
      },
      (err: unknown) => {
        setError(err);
        setState('idle');
      },
    );
  };
  return (
    <section className="token-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('token.title')}</h2>
      <p>{t('token.explain')}</p>
      <form className="token-form" onSubmit={submit}>
        <label htmlFor={`${id}-input`}>{t('token.label')}</label>
        <input
          id={`${id}-input`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={value}
          aria-invalid={state === 'wrong'}
          aria-describedby={`${id}-help`}
          onChange={(e) => {
            setValue(e.target.value);
            setState('idle');
          }}
        />
        <button type="submit" className="button button-primary" disabled={state === 'checking' || !value.trim()}>
          {state === 'checking' ? t('token.checking') : t('token.save')}
        </button>
      </form>
      <p id={`${id}-help`} className="muted">
        {t('token.where')}
      </p>
      {state === 'wrong' && (
        <p className="field-error" role="alert">
          {t('token.wrong')}
        </p>
      )}
      {error !== null && <ErrorNotice error={error} />}
    </section>
  );
}
