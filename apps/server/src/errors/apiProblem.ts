// The one error type routes and services throw for a failure the user can see: a stable
// code, an HTTP status, the message key and the values the message is built from.
import type { ErrorCode } from '@sentinelle/contracts';
import type { MessageKey } from './messages.js';

export class ApiProblem extends Error {
  readonly messageKey: MessageKey;
  constructor(
    readonly code: ErrorCode,
    readonly statusCode: number,
    options: { messageKey?: MessageKey; details?: Record<string, unknown> } = {},
  ) {
    super(code);
    this.name = 'ApiProblem';
    this.messageKey = options.messageKey ?? code;
    this.details = options.details;
  }
  readonly details: Record<string, unknown> | undefined;
}
