import {
  type ActionIconProps,
  createTheme,
  defaultVariantColorsResolver,
  MantineProvider,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';
import type { KeyboardEvent, ReactNode } from 'react';

/**
 * Light and subtle buttons and badges draw their text in the darkest shade of their colour, so that text keeps
 * a 4.5:1 contrast on the tinted background (axe color-contrast).
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const defaults = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (parsed.isThemeColor && (input.variant === 'light' || input.variant === 'subtle')) {
    const text = `var(--mantine-color-${parsed.color}-9)`;
    return { ...defaults, color: text, hoverColor: text };
  }
  return defaults;
};

/**
 * The password field's eye: named for screen readers and reachable with Tab (Mantine leaves it unnamed, at
 * tabIndex -1). Space toggles it (Mantine's own key handler); Enter does too, as on any button: Mantine toggles on
 * mousedown, so Enter sends one.
 */
const visibilityToggleButtonProps = {
  'aria-label': 'Показать пароль',
  tabIndex: 0,
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    event.currentTarget.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true }));
  },
} satisfies ActionIconProps & Record<string, unknown>;

export const theme = createTheme({
  variantColorResolver,
  primaryColor: 'blue',
  // Darker shades keep white-on-blue buttons above 4.5:1 contrast (axe).
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    // The default dimmed description is too pale on the grey page background (axe color-contrast).
    InputWrapper: { styles: { description: { color: 'var(--mantine-color-gray-7)' } } },
    PasswordInput: { defaultProps: { visibilityToggleButtonProps } },
    // Icon-only buttons must be named in Russian at each use (aria-label); the modal's close button is named here.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Закрыть' } } },
  },
});

export function AppProvider({
  children,
  env,
  styleNonce,
}: {
  children: ReactNode;
  /** 'test' turns off Mantine transitions and portals, so dropdown options render in jsdom. */
  env?: 'default' | 'test';
  /** The page's CSP nonce (lib/csp-nonce.ts), put on the <style> elements Mantine writes. */
  styleNonce?: string | undefined;
}) {
  return (
    <MantineProvider theme={theme} env={env} getStyleNonce={styleNonce ? () => styleNonce : undefined}>
      {children}
    </MantineProvider>
  );
}
