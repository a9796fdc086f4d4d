import { Button } from '@mantine/core';
import { COMMON_MESSAGES } from '@propusk/contracts/texts/common';
import { useNavigate } from 'react-router';
import { ErrorLine } from './status-line';

/** A barrier screen opened without a barrier (a direct visit): say so and offer the list. */
export function MissingBarrier({ listPath }: { listPath: string }) {
  const navigate = useNavigate();
  return (
    <>
      <ErrorLine message={COMMON_MESSAGES.barrierNotFound} />
      <Button variant="light" onClick={() => navigate(listPath)}>
        К списку шлагбаумов
      </Button>
    </>
  );
}
