/**
 * Moved to lib/paths.ts (issue 44: components import it, and nothing beneath app/ may import from app/). This
 * re-export stays only for admin-barrier-page.tsx and conformance-admin.tsx, which others change this session;
 * point their imports at lib/paths and delete this file.
 */
export { type AppPath, type NavigationState, paths } from '../lib/paths';
