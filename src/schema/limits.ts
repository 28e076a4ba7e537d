/**
 * The service's limits on one request (docs/service-api.md sections 8 and 4.1), once: the client
 * keeps below them and the emulator enforces them, so the two read the same numbers.
 */

/**
 * A request body is at most "1 MB". The service is silent on the exact byte count, so both sides
 * take the smaller reading (1,000,000 bytes, not 1 MiB): a body the emulator accepts is one the
 * service accepts under either reading (docs/service-api.md section 8).
 */
export const MAX_BODY_BYTES = 1_000_000;

/** The largest `page[size]` of a list (docs/service-api.md section 4.1). */
export const MAX_PAGE_SIZE = 100;
