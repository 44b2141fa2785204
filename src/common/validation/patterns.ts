/** A UUID in its canonical text form (any case): organisation ids. Apart from the validators: the CLI reads it at once. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
