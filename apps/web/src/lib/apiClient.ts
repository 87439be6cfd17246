// The one way the web app talks to /api: adds the bearer token and Accept-Language, turns
// the server's error JSON ({error:{code,message}, detail}) into an ApiRequestError and
// checks every answer against its contract schema.
import { apiErrorSchema, STORAGE_KEYS, type ErrorCode } from '@sentinelle/contracts';
import { currentLanguage } from './i18n.js';
import { readStored } from './storage.js';

/** Server error codes, plus the failures that never reached a server answer. */
export type RequestFailureCode = ErrorCode | 'network_error' | 'unexpected_response';

export class ApiRequestError extends Error {
  constructor(
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
    readonly code: RequestFailureCode,
    /** The server's message, already in the user's language; empty when there is none. */
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export interface ApiRequestInit {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart/form-data (the browser sets the boundary). */
  form?: FormData;
  signal?: AbortSignal;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** Sends a request and returns status and parsed body of a 2xx answer; throws otherwise. */
export async function apiFetch(path: string, init: ApiRequestInit = {}): Promise<ApiAnswer> {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': currentLanguage() });
  const token = readStored(STORAGE_KEYS.steamToken);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (init.form) body = init.form;
  else if (init.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(init.json);
  }

  let response: Response;
  try {
    // Resolved against the page so the same call works in the browser and under jsdom.
    response = await fetch(new URL(path, window.location.href), {
      method: init.method ?? 'GET',
      headers,
      body,
      signal: init.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(
      0,
      'network_error',
      error instanceof Error ? error.message : String(error),
    );
  }

  const text = await response.text();
  let parsed: unknown = undefined;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }

  if (!response.ok) {
    const failure = apiErrorSchema.safeParse(parsed);
    if (failure.success) {
      const { code, message, details } = failure.data.error;
      throw new ApiRequestError(response.status, code, message || failure.data.detail, details);
    }
    throw new ApiRequestError(
      response.status,
      response.status === 413 ? 'payload_too_large' : 'unexpected_response',
      '',
    );
  }
  return { status: response.status, body: parsed };
}

/** What we need of a contract's zod schema (kept structural: zod is the contracts' dependency). */
export interface AnswerSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** Checks an answer body against its contract schema. */
export function parseAnswer<T>(schema: AnswerSchema<T>, answer: ApiAnswer): T {
  const result = schema.safeParse(answer.body);
  if (!result.success) throw new ApiRequestError(answer.status, 'unexpected_response', '');
  return result.data;
}

export async function apiRequest<T>(
  path: string,
  schema: AnswerSchema<T>,
  init?: ApiRequestInit,
): Promise<T> {
  return parseAnswer(schema, await apiFetch(path, init));
}
