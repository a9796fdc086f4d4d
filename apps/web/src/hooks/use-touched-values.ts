import { useState } from 'react';
import { useFormDraft } from './use-form-draft';

/**
 * A form's values and the fields the person has touched: a field shows its message once touched (README
 * "Forms"). Setting a value touches its field. With a `draftName` the values outlive an ended session
 * (use-form-draft.ts); the fields given back count as touched.
 */
export function useTouchedValues<Values extends object>(
  initialValues: Values,
  draftName: string | null = null,
) {
  const [values, setValues] = useState(initialValues);
  const [touched, setTouched] = useState<ReadonlySet<keyof Values>>(new Set());
  useFormDraft(draftName, values, (saved) => {
    setValues((current) => ({ ...current, ...saved }));
    setTouched(new Set(Object.keys(saved) as (keyof Values)[]));
  });
  const touch = (field: keyof Values) => setTouched((current) => new Set(current).add(field));
  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    touch(field);
  };
  return { values, touched, touch, set };
}
