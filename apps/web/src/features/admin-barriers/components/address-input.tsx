import { Autocomplete, Button, Group, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { EXAMPLE_ADDRESS } from '@propusk/contracts/addresses';
import { useQuery } from '@tanstack/react-query';
import { addressSuggestionsQueryKey, getAddressSuggestions } from '../api/admin-barriers-api';

export const EXAMPLE_ADDRESS_BUTTON = 'Вставить пример адреса';

interface AddressInputProps {
  value: string;
  onChange: (value: string) => void;
  /** A suggestion was picked or the example inserted: the form counts only such a value as an address. */
  onChoose: (value: string) => void;
  error?: string | null;
}

/**
 * The address of a new barrier: suggestions from `/api/addresses/suggest/` while typing, and a button that
 * inserts a sample Moscow address (spec.md section 2, /create-barrier).
 */
export function AddressInput({ value, onChange, onChoose, error }: AddressInputProps) {
  const [query] = useDebouncedValue(value.trim(), 250);
  const suggestions = useQuery({
    queryKey: addressSuggestionsQueryKey(query),
    queryFn: () => getAddressSuggestions(query),
    enabled: query.length >= 2,
    // spec.md section 9: the suggestion cache lives 10 minutes.
    staleTime: 10 * 60 * 1000,
  });
  const options = [...new Set((suggestions.data?.suggestions ?? []).map((item) => item.value))];

  return (
    <Stack gap={4}>
      <Autocomplete
        label="Адрес"
        placeholder="Начните вводить адрес"
        value={value}
        data={options}
        // The server already filtered: show what it suggested.
        filter={({ options: all }) => all}
        limit={10}
        onChange={onChange}
        onOptionSubmit={onChoose}
        error={error}
        required
        autoComplete="off"
      />
      <Group>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => {
            onChoose(EXAMPLE_ADDRESS);
            onChange(EXAMPLE_ADDRESS);
          }}
        >
          {EXAMPLE_ADDRESS_BUTTON}
        </Button>
      </Group>
    </Stack>
  );
}
