import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { draftKey, hasDraft, registerDraft, takeDraft } from '../lib/form-drafts';
import { readStored } from '../lib/storage';

/** The key of a form on this screen (its name, the screen, the barrier/user/number of the navigation state). */
export function useDraftKey(name: string | null): string | null {
  const location = useLocation();
  return name === null ? null : draftKey(name, location.pathname, location.state);
}

/** Whether this form has values kept from an ended session (a folded form or a closed one opens for them). */
export function useHasDraft(name: string | null): boolean {
  const key = useDraftKey(name);
  return key !== null && hasDraft(key, readStored('phone'));
}

/**
 * Keeps a form's values if the session ends while it is on screen, and gives them back when the same form is
 * shown again after the same number logged in (lib/form-drafts.ts). `name` null: nothing is kept. `restore`
 * gets only the kept fields (never a password or a code).
 */
export function useFormDraft<Values extends object>(
  name: string | null,
  values: Values,
  restore: (saved: Partial<Values>) => void,
): void {
  const key = useDraftKey(name);
  const latest = useRef(values);
  latest.current = values;
  const restoreLatest = useRef(restore);
  restoreLatest.current = restore;
  useEffect(() => {
    if (key === null) return;
    const saved = takeDraft(key, readStored('phone'));
    if (saved) restoreLatest.current(saved as Partial<Values>);
    return registerDraft(key, () => latest.current);
  }, [key]);
}
