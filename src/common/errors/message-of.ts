/** The first line of an error's message (of anything thrown), for a one-line log or refusal. */
export function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0];
}
