/**
 * Errors: every failure of a call is thrown as one TriformError subclass.
 *
 * The server answers every error in one JSON shape, `{"error": {"code", "class",
 * "retryable", "message"}}` (docs/api.md, Errors). `errorFromResponse` turns it into the
 * subclass of its `class`, keeping `code`, `retryable`, the HTTP status, the whole body
 * (some answers carry more beside `error`: a merge's conflicts, an import's report) and
 * `Retry-After`. An answer that is not in that shape (a proxy's HTML page, a cut-off body)
 * still becomes an error of its status, never a silent success; no answer at all (a
 * refused connection, a reset, a timeout) is a ConnectionFailed.
 */

import { parseRetryAfter } from "./retry.js";

export interface ErrorDetails {
  code: string;
  errorClass?: string;
  retryable?: boolean;
  status?: number | null;
  body?: Record<string, unknown>;
  retryAfter?: number | null;
}

/** A call failed. `status` is null when no HTTP answer was received. */
export class TriformError extends Error {
  static readonly errorClass: string = "internal";
  readonly code: string;
  readonly errorClass: string;
  readonly retryable: boolean;
  readonly status: number | null;
  readonly body: Record<string, unknown>;
  readonly retryAfter: number | null;

  constructor(message: string, details: ErrorDetails) {
    super(message);
    this.name = new.target.name;
    this.code = details.code;
    this.errorClass = details.errorClass ?? (new.target as typeof TriformError).errorClass;
    this.retryable = details.retryable ?? false;
    this.status = details.status ?? null;
    this.body = details.body ?? {};
    this.retryAfter = details.retryAfter ?? null;
  }

  override toString(): string {
    const where = this.status !== null ? `HTTP ${this.status} ` : "";
    return `${where}${this.code} (${this.errorClass}): ${this.message}`;
  }
}

/** 400: the request was malformed or a field was wrong (the message names it). */
export class ValidationError extends TriformError {
  static override readonly errorClass = "validation";
}
/** 401: no token, or an unknown or revoked one. */
export class Unauthorized extends TriformError {
  static override readonly errorClass = "unauthorized";
}
/** 403: the token's circle or role lacks the op, or an auth-policy denies it. */
export class Forbidden extends TriformError {
  static override readonly errorClass = "forbidden";
}
/** 404: no such element, op or record. */
export class NotFound extends TriformError {
  static override readonly errorClass = "not_found";
}
/** 405: the path exists with another method. */
export class MethodNotAllowed extends TriformError {
  static override readonly errorClass = "method_not_allowed";
}
/** 409: the element's state refuses the op (disabled, diverged, merge conflicts...). */
export class Conflict extends TriformError {
  static override readonly errorClass = "conflict";
}
/** 413: the body or a value passed a limit. */
export class TooLarge extends TriformError {
  static override readonly errorClass = "too_large";
}
/** 422: the request conflicts with an earlier one (an Idempotency-Key reused). */
export class Unprocessable extends TriformError {
  static override readonly errorClass = "unprocessable";
}
/** 429: an attached rate limit is full; `retryAfter` says for how many seconds. */
export class RateLimited extends TriformError {
  static override readonly errorClass = "rate_limited";
}
/** 500: the server failed; its log has the details. */
export class ServerError extends TriformError {
  static override readonly errorClass = "internal";
}
/** 501: the op is on the sheet but not built on this server. */
export class NotImplementedOp extends TriformError {
  static override readonly errorClass = "not_implemented";
}
/** 503: the server cannot serve this now (a database down, too many event streams). */
export class Unavailable extends TriformError {
  static override readonly errorClass = "unavailable";
}
/** 507: the server's storage is full; nothing was written. */
export class StorageFull extends TriformError {
  static override readonly errorClass = "storage_full";
}

/**
 * No answer: the connection was refused, broke or timed out. `sent` tells whether the
 * request may have reached the server (then it may or may not have been applied).
 */
export class ConnectionFailed extends TriformError {
  static override readonly errorClass = "unavailable";
  readonly sent: boolean;

  constructor(message: string, sent: boolean, options?: { cause?: unknown }) {
    super(message, { code: "CONNECTION_FAILED", retryable: true });
    this.sent = sent;
    if (options?.cause !== undefined) {
      Object.defineProperty(this, "cause", { value: options.cause, enumerable: false });
    }
  }
}

/** A success status whose body is not what the op answers (not JSON, cut off...). */
export class InvalidResponse extends TriformError {
  static override readonly errorClass = "internal";
}

type ErrorClass = new (message: string, details: ErrorDetails) => TriformError;

const BY_CLASS: Record<string, ErrorClass> = Object.fromEntries(
  [ValidationError, Unauthorized, Forbidden, NotFound, MethodNotAllowed, Conflict, TooLarge,
    Unprocessable, RateLimited, ServerError, NotImplementedOp, Unavailable, StorageFull]
    .map((cls) => [cls.errorClass, cls]),
);

const CLASS_OF_STATUS: Record<number, string> = {
  400: "validation", 401: "unauthorized", 403: "forbidden", 404: "not_found",
  405: "method_not_allowed", 409: "conflict", 413: "too_large", 422: "unprocessable",
  429: "rate_limited", 500: "internal", 501: "not_implemented", 503: "unavailable",
  507: "storage_full",
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The error an unsuccessful answer stands for: its status, headers and body text. */
export function errorFromResponse(status: number, headers: Headers, text: string,
                                  statusText = ""): TriformError {
  const retryAfter = parseRetryAfter(headers.get("Retry-After"));
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const error = isRecord(body) ? body["error"] : undefined;
  if (isRecord(error) && typeof error["code"] === "string") {
    const errorClass = typeof error["class"] === "string" ? error["class"]
      : CLASS_OF_STATUS[status] ?? "internal";
    const cls = BY_CLASS[errorClass] ?? TriformError;
    return new cls(String(error["message"] ?? ""), {
      code: error["code"], errorClass, retryable: error["retryable"] === true, status,
      body: body as Record<string, unknown>, retryAfter,
    });
  }
  // Not our shape: someone between us and the server answered, or the body was cut off.
  const errorClass = CLASS_OF_STATUS[status] ?? (status >= 500 ? "internal" : "validation");
  const cls = BY_CLASS[errorClass] ?? TriformError;
  const shown = text.trim().replace(/\s+/g, " ").slice(0, 200);
  return new cls(shown || statusText || `HTTP ${status}`, {
    code: `HTTP_${status}`, errorClass, retryable: [429, 502, 503, 504].includes(status),
    status, retryAfter,
  });
}
