import { type ComponentType, useEffect, useState } from 'react';
import type { ConfirmDialogProps } from './confirm-dialog-modal';

export type { ConfirmDialogProps };

type Dialog = ComponentType<ConfirmDialogProps>;

/** Mantine's Modal and focus trap (≈ 23 KB gzipped) come only after a screen is drawn (issue 32 item 8). */
let loadedDialog: Dialog | null = null;
let loading: Promise<Dialog> | null = null;

function loadDialog(): Promise<Dialog> {
  loading ??= import('./confirm-dialog-modal')
    .then((module) => {
      loadedDialog = module.default;
      return module.default;
    })
    .catch((error: unknown) => {
      // Not fetched (offline, a new build): the next opening or screen tries again.
      loading = null;
      throw error;
    });
  return loading;
}

/** After the screen's own code and first reads: the browser is idle or a couple of seconds have passed. */
function whenIdle(callback: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(callback, { timeout: 2_000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(callback, 1_000);
  return () => window.clearTimeout(id);
}

/**
 * A confirmation in a modal dialog (confirm-dialog-modal.tsx). Its code is not part of the screen's first load:
 * it is fetched once the browser is idle after the screen is drawn (so that a tap made offline later still
 * finds it), or at once when the dialog opens first.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const [Loaded, setLoaded] = useState<Dialog | null>(() => loadedDialog);
  const { opened } = props;

  useEffect(() => {
    if (Loaded) return;
    let isCurrent = true;
    const load = () => {
      loadDialog()
        .then((dialog) => {
          if (isCurrent) setLoaded(() => dialog);
        })
        .catch(() => undefined);
    };
    if (opened) {
      load();
      return () => {
        isCurrent = false;
      };
    }
    const cancel = whenIdle(load);
    return () => {
      isCurrent = false;
      cancel();
    };
  }, [Loaded, opened]);

  return Loaded ? <Loaded {...props} /> : null;
}
