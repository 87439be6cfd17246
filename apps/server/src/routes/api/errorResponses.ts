// The error replies a route may give, declared for validation and for the OpenAPI document.
import { apiErrorSchema } from '@sentinelle/contracts';

export const errorResponses = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  402: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  413: apiErrorSchema,
  429: apiErrorSchema,
  500: apiErrorSchema,
};
