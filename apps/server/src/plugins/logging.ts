// Logger options of the app: structured pino logs that never carry secrets. Authorization
// and cookie headers, set-cookie, and the values of secret-looking query parameters (the
// /auth/success ticket, OpenID signatures and nonces, keys) are replaced before writing.
import type { DestinationStream, LoggerOptions } from 'pino';
import type { FastifyRequest } from 'fastify';

const SECRET_PARAM = /token|ticket|sig|nonce|assoc_handle|key|secret|password|session/i;
export const REDACTED = '[redacted]';

/** The URL as logged: path kept, values of secret-looking query parameters replaced. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed escape is logged as sent, minus its value below
      }
      return eq !== -1 && SECRET_PARAM.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

export function loggerOptions(
  level: string,
  stream?: DestinationStream,
): LoggerOptions & { stream?: DestinationStream } {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'headers.authorization',
        'headers.cookie',
        '*.access_token',
        '*.token',
        '*.password',
        'body',
        '*.body',
      ],
      censor: REDACTED,
    },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}
