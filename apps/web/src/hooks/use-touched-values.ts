import { useState } from 'react';

/**
 * A form's values and the fields the person has touched: a field shows its message once touched (README
 * "Forms"). Setting a value touches its field.
 */
export function useTouchedValues<Values extends object>(initialValues: Values) {
  const [values, setValues] = useState(initialValues);
  const [touched, setTouched] = useState<ReadonlySet<keyof Values>>(new Set());
  const touch = (field: keyof Values) => setTouched((current) => new Set(current).add(field));
  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    touch(field);
  };
  return { values, touched, touch, set };
}
