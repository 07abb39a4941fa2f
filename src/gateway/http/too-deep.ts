/**
 * JSON.parse accepts nesting of any depth (a body of a million "[" parses in a fraction of a second); walking
 * such a value (counting it, serialising it again) overflows the stack. That is the client's malformed input,
 * answered as such, not an internal error.
 */
export const TOO_DEEP_MESSAGE = "request body is nested too deeply";

export const isTooDeep = (error: unknown) => error instanceof RangeError && error.message.includes("call stack");
