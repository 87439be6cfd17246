// Picks the language of a reply: an explicit `language` query or body field first, then the
// best fr/en match of Accept-Language, else English.
import type { FastifyRequest } from 'fastify';
import { LANGUAGES, type Language } from '@sentinelle/contracts';

function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function languageFromAcceptHeader(header: string | undefined): Language | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return {
        primary: tag.trim().toLowerCase().split('-')[0],
        quality: Number.isFinite(quality) ? quality : 0,
        index,
      };
    })
    .filter((entry) => entry.quality > 0 && isLanguage(entry.primary))
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return (ranked[0]?.primary as Language | undefined) ?? null;
}

export function requestLanguage(request: FastifyRequest): Language {
  const query = request.query as Record<string, unknown> | undefined;
  if (isLanguage(query?.language)) return query.language;
  const body = request.body as Record<string, unknown> | undefined;
  if (body && typeof body === 'object' && isLanguage(body.language)) return body.language;
  return languageFromAcceptHeader(request.headers['accept-language']) ?? 'en';
}
