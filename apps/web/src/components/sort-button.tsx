import { Button } from '@mantine/core';

/** The sort cycle of barrier lists (spec.md section 4): none → address ascending → descending → none. */
export const SORT_CYCLE = [undefined, 'address', '-address'] as const;
export type AddressOrdering = (typeof SORT_CYCLE)[number];

const LABELS: Record<string, string> = { none: 'нет', address: 'адрес А→Я', '-address': 'адрес Я→А' };

export function nextOrdering(current: AddressOrdering): AddressOrdering {
  const index = SORT_CYCLE.indexOf(current);
  return SORT_CYCLE[(index + 1) % SORT_CYCLE.length];
}

export function SortButton({
  value,
  onChange,
}: {
  value: AddressOrdering;
  onChange: (value: AddressOrdering) => void;
}) {
  return (
    <Button variant="default" onClick={() => onChange(nextOrdering(value))} data-ordering={value ?? 'none'}>
      Сортировка: {LABELS[value ?? 'none']}
    </Button>
  );
}
