/**
 * One HTTP exchange with the server, tried again per RetryPolicy.
 *
 * `Transport` holds the base URL, the auth header and the timeouts, builds op URLs, and
 * turns every answer into data or a TriformError. Nothing here knows what an op means:
 * callers say whether a call is `safe` to repeat. Every promise it makes is awaited or
 * handled, so no failure of the network ever surfaces as an unhandled rejection.
 */

import { ConnectionFailed, InvalidResponse, TriformError, ValidationError,
  errorFromResponse } from "./errors.js";
import { RetryPolicy } from "./retry.js";

export const VERSION = "0.1.0";

/** Told to `onRetry` before each wait: retry number, seconds to wait, the error. */
export interface RetryEvent {
  attempt: number;
  delay: number;
  error: TriformError;
  method: string;
  path: string;
}

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;
/** What a call may send as its body besides JSON: bytes, text, or a stream of chunks. */
export type Content = Uint8Array | string | AsyncIterable<Uint8Array>;

export interface CallOptions {
  /** May the call be repeated after an answer that may have been lost? */
  safe: boolean;
  json?: unknown;
  content?: Content;
  params?: Query | undefined;
  headers?: Record<string, string> | undefined;
  /** Seconds until the answer's status line (and, for `call`, its body) must be in. */
  timeout?: number | undefined;
  /** Aborts the call, and for `open` the reading of its body; an aborted call is never
   * tried again. */
  signal?: AbortSignal | undefined;
}

/** `body` without its undefined fields (JSON would drop them anyway; this says so). */
export function defined<T extends object>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as T;
}

/** Failures where the request never left: the connection was not made. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH",
  "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT", "EADDRNOTAVAIL"]);

/** `/api/<element_path>/ops/<op_path>` with every segment percent-encoded.
 * @throws ValidationError an empty, `.` or `..` segment (it would name another element
 *   or op). */
export function opUrl(elementPath: string, opPath: string): string {
  const segments = [...elementPath.replace(/^\/+|\/+$/g, "").split("/"), "ops",
    ...opPath.split("/")];
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..") {
      throw new ValidationError(`${JSON.stringify(elementPath)} / ${JSON.stringify(opPath)}` +
        " has an empty, '.' or '..' segment", { code: "INVALID_PATH" });
    }
  }
  return "/api/" + segments.map(encodeURIComponent).join("/");
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Object; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The ConnectionFailed a failed fetch (or body read) stands for. */
export function connectionError(method: string, path: string, error: unknown,
                                timedOut: boolean, sentAtLeast = false): ConnectionFailed {
  if (error instanceof ConnectionFailed) return error;
  const code = causeCode(error);
  const sent = sentAtLeast || !(code !== undefined && NOT_SENT.has(code));
  const what = timedOut ? "timed out" : code ?? (error instanceof Error ? error.message : String(error));
  return new ConnectionFailed(
    `${method} ${path}: ${what}` + (sent ? " (the request may or may not have been applied)" : ""),
    sent, { cause: error });
}

/** Wait `seconds`, or less: until `signal` aborts (a stream closed during a retry's
 * wait ends at once). */
function sleep(seconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, seconds * 1000);
    signal?.addEventListener("abort", done, { once: true });
  });
}

async function* chunks(content: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of content) yield chunk;
}

/** A stream fetch can send from an async iterable of chunks. */
function streamOf(content: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const source = chunks(content);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await source.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}

export interface TransportOptions {
  timeout: number;
  policy: RetryPolicy;
  env?: string | undefined;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  random?: () => number;
}

/** Sends calls, retries them when allowed, throws every failure as a TriformError. */
export class Transport {
  readonly baseUrl: string;
  readonly timeout: number;
  readonly policy: RetryPolicy;
  private readonly headers: Record<string, string>;
  private readonly onRetry: ((event: RetryEvent) => void) | undefined;
  private readonly random: () => number;

  constructor(baseUrl: string, token: string | null | undefined, options: TransportOptions) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.timeout = options.timeout;
    this.policy = options.policy;
    this.onRetry = options.onRetry;
    this.random = options.random ?? Math.random;
    this.headers = { "User-Agent": `triform-client-ts/${VERSION}`, Accept: "application/json" };
    if (token) this.headers["Authorization"] = `Bearer ${token}`;
    if (options.env) this.headers["X-Triform-Env"] = options.env;
  }

  url(path: string, params?: Query): string {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(params ?? {})) {
      if (value === undefined || value === null) continue;
      url.searchParams.set(key, typeof value === "boolean" ? String(value) : String(value));
    }
    return url.toString();
  }

  /**
   * Send one call and answer its JSON body (null for an empty body).
   * @throws TriformError the server's error (a subclass by class), a connection that
   *   failed (ConnectionFailed) or a body that is not JSON; after the retries allowed.
   */
  async call<T>(method: string, path: string, options: CallOptions): Promise<T> {
    const [response, text] = await this.send(method, path, options, true);
    if (text === "") return null as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new InvalidResponse(`${method} ${path} answered ${response.status} with a body ` +
        "that is not JSON", { code: "INVALID_RESPONSE", status: response.status });
    }
  }

  /** A successful response whose body is left to the caller to read (a stream); tried
   * again as `call` is until its status line arrives. Read or cancel its body. */
  async open(method: string, path: string, options: CallOptions): Promise<Response> {
    const [response] = await this.send(method, path, options, false);
    return response;
  }

  /** The body of a GET, chunk by chunk as it arrives (never whole in memory).
   * @throws ConnectionFailed the body broke off (what came before was yielded). */
  async *download(path: string, params?: Query): AsyncGenerator<Uint8Array> {
    const response = await this.open("GET", path, { safe: true, params });
    yield* readBody(response, "GET", path);
  }

  private async send(method: string, path: string, options: CallOptions,
                     readBody: boolean): Promise<[Response, string]> {
    const url = this.url(path, options.params);
    const canRepeat = options.content === undefined || typeof options.content === "string" ||
      options.content instanceof Uint8Array;
    for (let attempt = 0; ; attempt += 1) {
      let error: TriformError;
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, (options.timeout ?? this.timeout) * 1000);
      const stop = () => controller.abort();
      if (options.signal?.aborted) stop();
      options.signal?.addEventListener("abort", stop, { once: true });
      try {
        const response = await fetch(url, this.request(method, options, controller.signal));
        if (response.ok && !readBody) return [response, ""];
        let text: string;
        try {
          text = await response.text();
        } catch (cause) {
          if (!response.ok) throw errorFromResponse(response.status, response.headers, "",
                                                    response.statusText);
          throw connectionError(method, path, cause, timedOut, true);
        }
        if (response.ok) return [response, text];
        error = errorFromResponse(response.status, response.headers, text, response.statusText);
      } catch (cause) {
        error = cause instanceof TriformError ? cause
          : connectionError(method, path, cause, timedOut);
      } finally {
        clearTimeout(timer);
      }
      options.signal?.removeEventListener("abort", stop);
      if (options.signal?.aborted) throw error;
      const sent = error instanceof ConnectionFailed ? error.sent : true;
      const delay = canRepeat && RetryPolicy.mayRetry(error.retryable, error.status, sent,
                                                      options.safe)
        ? this.policy.delay(attempt, error.retryAfter, this.random()) : null;
      if (delay === null) throw error;
      this.onRetry?.({ attempt: attempt + 1, delay, error, method, path });
      await sleep(delay, options.signal);
      if (options.signal?.aborted) throw error;
    }
  }

  private request(method: string, options: CallOptions, signal: AbortSignal): RequestInit {
    const headers: Record<string, string> = { ...this.headers, ...(options.headers ?? {}) };
    let body: RequestInit["body"] | undefined;
    if (options.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (typeof options.content === "string" || options.content instanceof Uint8Array) {
      body = options.content;
    } else if (options.content !== undefined) {
      body = streamOf(options.content);
    }
    const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
    if (body !== undefined) {
      init.body = body;
      init.duplex = "half";
    }
    return init;
  }
}

/** The chunks of a response's body; its reader is released however the caller stops.
 * @throws ConnectionFailed the body broke off. */
export async function* readBody(response: Response, method: string,
                                path: string): AsyncGenerator<Uint8Array> {
  const body = response.body;
  if (body === null) return;
  const reader = body.getReader();
  let bytes = 0;
  let finished = false;
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (cause) {
        throw new ConnectionFailed(`${method} ${path}: the body broke off after ${bytes} ` +
          "bytes", true, { cause });
      }
      if (next.done) {
        finished = true;
        return;
      }
      bytes += next.value.byteLength;
      yield next.value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
