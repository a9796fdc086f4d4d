import { Button } from '@mantine/core';

/** spec.md section 4: sort cycles none → address ascending → -address descending → none. */
export type AddressOrdering = 'address' | '-address' | undefined;

export function nextAddressOrdering(current: AddressOrdering): AddressOrdering {
  if (current === undefined) return 'address';
  if (current === 'address') return '-address';
  return undefined;
}

const LABELS = { none: 'Сортировка: нет', address: 'Сортировка: адрес ↑', '-address': 'Сортировка: адрес ↓' };

/** One button that cycles the address ordering of a barrier list. */
export function AddressSortButton({
  value,
  onChange,
}: {
  value: AddressOrdering;
  onChange: (next: AddressOrdering) => void;
}) {
  return (
    <Button variant="default" size="sm" onClick={() => onChange(nextAddressOrdering(value))}>
      {LABELS[value ?? 'none']}
    </Button>
  );
}
