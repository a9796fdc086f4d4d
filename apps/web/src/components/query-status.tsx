import { Center, Loader } from '@mantine/core';
import { ErrorLine } from './status-line';

/** A loader while the first load runs, or the screen's error line when it failed. */
export function QueryStatus({ isPending, error }: { isPending: boolean; error: string | null }) {
  if (isPending)
    return (
      <Center py="lg">
        <Loader aria-label="Загрузка" />
      </Center>
    );
  return <ErrorLine message={error} />;
}
