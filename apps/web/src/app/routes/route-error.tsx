import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorScreen, isChunkLoadError } from '../../components/error-screen';
import { useOnline } from '../../hooks/use-online';

/**
 * The error screen of every route (React Router `ErrorBoundary`; issue 32 item 2): Russian words instead of the
 * router's English developer page, «Повторить» and a way home. A screen whose code could not be loaded says
 * «Нет связи» and loads itself again when the network returns.
 */
export function RouteError() {
  const error = useRouteError();
  const isOnline = useOnline();
  const isNotFound = isRouteErrorResponse(error) && error.status === 404;
  const isNetwork = !isNotFound && (!isOnline || isChunkLoadError(error));
  return <ErrorScreen kind={isNetwork ? 'network' : isNotFound ? 'not-found' : 'failed'} />;
}
