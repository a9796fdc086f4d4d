/**
 * One access-log line per request. Fastify's default writes two at `info` ("incoming request", then
 * "request completed" with only the status), which doubles the logging cost of every call (serialising and
 * writing a JSON line) for a line that says little: a request that never completes still shows through its
 * error line, and both carry `reqId`. Here the incoming line moves to `debug` and the completion line
 * carries the method and URL as well. Errors keep Fastify's own lines.
 */
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { errorForLog } from './log-error.ts';
import { routeForLog } from './log-privacy.ts';

export class AccessLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    // Never the request object itself: its URL carries the query (searched phones, names) and tokens.
    request.log.debug({ method: request.method, url: routeForLog(request) }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // The route's pattern, never the URL (issue 28 part 4): no query string (searched phones, names), no token
    // in the path (`/guest/:token`), no raw error.
    const fields = {
      method: request.method,
      url: routeForLog(request),
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...fields, err: errorForLog(error) }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}
