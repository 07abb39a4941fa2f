/** The first line of an error's message: the service's refusal as the API words it. */
export const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split("\n")[0]!;
