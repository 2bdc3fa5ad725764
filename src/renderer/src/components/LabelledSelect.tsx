import { useId } from 'react';

export interface SelectOption<V extends string> {
  readonly value: V;
  readonly label: string;
  readonly disabled?: boolean;
}

interface Props<V extends string> {
  readonly label: string;
  readonly value: V;
  readonly options: readonly SelectOption<V>[];
  readonly onChange: (value: V) => void;
  readonly testId?: string;
  /** The wrapper's class: `option` (a label above its select, inside an `.options` row) by default. */
  readonly className?: string;
  readonly disabled?: boolean;
}

/**
 * A select with its visible label tied to it (`htmlFor`/`id`), the block every options row
 * repeats. The value type is the options' own, so a page gets back a `DateBucket`, not a string.
 */
export function LabelledSelect<V extends string>({ label, value, options, onChange, testId, className = 'option', disabled }: Props<V>) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        data-testid={testId}
        // the value is one of `options`' values: the DOM hands back what we gave it
        onChange={(e) => onChange(options.find((o) => o.value === e.target.value)?.value ?? value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
