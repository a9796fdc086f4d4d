import { Center, Loader } from '@mantine/core';

/** What a screen shows while its code loads (the router's lazy routes, the sign-in screens' light entry). */
export function ScreenLoader() {
  return (
    <Center mih="100dvh">
      <Loader aria-label="Загрузка" />
    </Center>
  );
}
