import { Text } from '@mantine/core';

/** An inline error (spec.md section 8: "All messages appear inline"). Renders nothing without a message. */
export function ErrorLine({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Text c="red.9" size="sm" role="alert" data-testid="error-line">
      {message}
    </Text>
  );
}

/** An inline confirmation. */
export function SuccessLine({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Text c="teal.9" size="sm" role="status" data-testid="success-line">
      {message}
    </Text>
  );
}
