/**
 * One access-log line per request. Fastify's default writes two at `info` ("incoming request", then
 * "request completed" with only the status), which doubles the logging cost of every call (serialising and
 * writing a JSON line) for a line that says little: a request that never completes still shows through its
 * error line, and both carry `reqId`. Here the incoming line moves to `debug` and the completion line
 * carries the method and URL as well. Errors keep Fastify's own lines.
 */
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { errorForLog, pathOnly } from './log-error.ts';

export class AccessLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // A failed request's line never carries the query string (searched phones, names), nor the raw error.
    const failed = Boolean(error) || reply.statusCode >= 500;
    const fields = {
      method: request.method,
      url: failed ? pathOnly(request.url) : request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...fields, err: errorForLog(error) }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}
