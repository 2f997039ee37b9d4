/** The client: one base URL, one token, handles on elements, the event stream. */

import { Agent } from "./agents.js";
import { Circle, Element } from "./elements.js";
import { EventStream, type EventOptions } from "./events.js";
import { MemoryElement } from "./memory.js";
import { RetryPolicy, type RetryOptions } from "./retry.js";
import { type Query, type RetryEvent, Transport } from "./transport.js";
import type { JSONObject } from "./types.js";

export interface ClientOptions extends RetryOptions {
  /** Seconds each call may take (for a stream: until its status line). Default 30. */
  timeout?: number;
  /** Sends `X-Triform-Env` with every call (which branch's spec governs). */
  env?: string;
  /** Hears of each retry before its wait. */
  onRetry?: (event: RetryEvent) => void;
}

/**
 * A client of one Triform Memory server. A call that fails is tried again `retries`
 * times, waiting `backoff` seconds doubled each time up to `maxBackoff` (or the server's
 * `Retry-After` when at most `maxRetryAfter`), only when the error is retryable or the
 * connection failed, and only when repeating the call cannot apply it twice. Every
 * failure is a rejected promise of a TriformError subclass.
 */
export class Client {
  readonly baseUrl: string;
  private readonly t: Transport;

  constructor(baseUrl: string, token: string | null | undefined, options: ClientOptions = {}) {
    this.baseUrl = baseUrl;
    this.t = new Transport(baseUrl, token, {
      timeout: options.timeout ?? 30, policy: new RetryPolicy(options), env: options.env,
      onRetry: options.onRetry,
    });
  }

  /** Any element, by path (`demo/memory`; a circle is `demo`). */
  element(path: string): Element {
    return new Element(this.t, path);
  }

  /** A memory element: store, search, list... its memories. */
  memory(path: string): MemoryElement {
    return new MemoryElement(this.t, path);
  }

  /** A triformer (an agent): observe, tools. */
  agent(path: string): Agent {
    return new Agent(this.t, path);
  }

  /** A circle: create elements in it, export and import bundles. */
  circle(name: string): Circle {
    return new Circle(this.t, name);
  }

  /** Activity events of the token's circle (or of one element, `path`) as they happen,
   * first replaying those after `lastEventId`. The connection opens on the first `next()`. */
  events(options: EventOptions = {}): EventStream {
    return new EventStream(this.t, options);
  }

  /** `GET /healthz` (needs no token). */
  health(): Promise<{ status: string }> {
    return this.t.call("GET", "/healthz", { safe: true });
  }

  /** The server's OpenAPI 3.1 document. */
  openapi(): Promise<JSONObject> {
    return this.t.call("GET", "/openapi.json", { safe: true });
  }

  /** Any route, for ops newer than this client: `call("GET", "/api/demo/ops/tree")`.
   * `safe` (may it be repeated after a lost answer?) defaults to true for GET only. */
  call<T = unknown>(method: string, path: string,
                    options: { body?: unknown; params?: Query; headers?: Record<string, string>;
                      safe?: boolean } = {}): Promise<T> {
    return this.t.call<T>(method, path, { json: options.body, params: options.params,
      headers: options.headers, safe: options.safe ?? method.toUpperCase() === "GET" });
  }
}
