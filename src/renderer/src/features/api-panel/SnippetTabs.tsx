import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { SNIPPET_KINDS, buildSnippet, type SnippetInput, type SnippetKind } from './snippets';

/** curl / Python / ckanapi / JavaScript as ARIA tabs (arrow keys move between them). */
export function SnippetTabs({ input }: { readonly input: SnippetInput }) {
  const { t } = useTranslation();
  const id = useId();
  const [kind, setKind] = useState<SnippetKind>('curl');
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const code = buildSnippet(kind, input);
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = SNIPPET_KINDS.indexOf(kind);
    const count = SNIPPET_KINDS.length;
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % count,
      ArrowLeft: (index - 1 + count) % count,
      Home: 0,
      End: count - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setKind(SNIPPET_KINDS[next]!);
    tabs.current[next]?.focus();
  };
  return (
    <div className="snippets">
      <div role="tablist" aria-label={t('apiPanel.snippets')} className="tabs" onKeyDown={onKey}>
        {SNIPPET_KINDS.map((k, i) => (
          <button
            key={k}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${k}`}
            aria-selected={k === kind}
            aria-controls={`${id}-panel`}
            tabIndex={k === kind ? 0 : -1}
            className="tab"
            onClick={() => setKind(k)}
            data-testid={`snippet-tab-${k}`}
          >
            {t(`apiPanel.kind.${k}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${kind}`}>
        <pre className="code" tabIndex={0} data-testid="snippet-code">
          {code}
        </pre>
        <CopyButton text={code} label={t('apiPanel.copySnippet', { kind: t(`apiPanel.kind.${kind}`) })} />
      </div>
    </div>
  );
}
