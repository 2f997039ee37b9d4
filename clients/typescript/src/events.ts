/**
 * Activity as it happens: `GET /api/events` (server-sent events) as an async iterator.
 *
 * A stream that breaks (the connection drops, the server ends a subscriber that fell
 * behind, the server restarts) is opened again with `Last-Event-ID`: the server replays
 * every event after it from the activity table, so the iterator yields each event once,
 * in `seq` order, with no gap. `lastEventId` can be saved and given to a later stream to
 * resume where this one stopped.
 */

import { ConnectionFailed, InvalidResponse } from "./errors.js";
import type { Transport } from "./transport.js";
import { readBody } from "./transport.js";
import type { Event } from "./types.js";

const DEFAULT_RETRY = 3; // seconds, until the server says otherwise (its `retry:` field)
const DEFAULT_KEEPALIVE = 15;

export interface EventOptions {
  /** Only this element's events (e.g. "demo/memory"). */
  path?: string;
  /** Another circle than the token's (403 unless it is the token's). */
  circle?: string;
  /** First replay every event after this id. */
  lastEventId?: number;
  /** End after this many events, counted over every reconnection. */
  limit?: number;
  /** End after this many seconds, counted over every reconnection. */
  timeout?: number;
  /** Seconds between the server's keepalive comments (default 15). */
  keepalive?: number;
  /** Open the stream again after it breaks (default true). */
  reconnect?: boolean;
  /** Seconds to wait before reconnecting (default: the server's `retry:`). */
  reconnectDelay?: number;
}

interface Message {
  id: string;
  data: string;
}

function decode(data: string): Event {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    event = null;
  }
  if (typeof event !== "object" || event === null ||
      !Number.isInteger((event as { seq?: unknown }).seq)) {
    throw new InvalidResponse(`an event that is not an activity event: ${data.slice(0, 200)}`,
                              { code: "INVALID_RESPONSE" });
  }
  return event as Event;
}

/** An async iterator of activity events; `close()` ends it and its connection. */
export class EventStream implements AsyncIterableIterator<Event> {
  lastEventId: number | undefined;
  received = 0;
  reconnects = 0;
  private retry = DEFAULT_RETRY;
  private readonly events: AsyncGenerator<Event>;
  private readonly controller = new AbortController();

  constructor(private readonly t: Transport, private readonly options: EventOptions = {}) {
    this.lastEventId = options.lastEventId;
    this.events = this.run();
  }

  [Symbol.asyncIterator](): EventStream {
    return this;
  }

  next(): Promise<IteratorResult<Event>> {
    return this.events.next();
  }

  async return(): Promise<IteratorResult<Event>> {
    await this.close();
    return { done: true, value: undefined };
  }

  /** End the stream and its connection. */
  async close(): Promise<void> {
    this.controller.abort();
    await this.events.return(undefined);
  }

  private done(deadline: number | undefined): boolean {
    return (this.options.limit !== undefined && this.received >= this.options.limit) ||
      (deadline !== undefined && Date.now() >= deadline) || this.controller.signal.aborted;
  }

  private async *run(): AsyncGenerator<Event> {
    const { timeout, reconnect = true } = this.options;
    const deadline = timeout === undefined ? undefined : Date.now() + timeout * 1000;
    while (!this.done(deadline)) {
      try {
        yield* this.oneStream(deadline);
        if (!reconnect) return;
      } catch (error) {
        if (!(error instanceof ConnectionFailed) || !reconnect || this.done(deadline)) {
          if (this.controller.signal.aborted) return;
          throw error;
        }
      }
      if (this.done(deadline)) return;
      this.reconnects += 1;
      let wait = this.options.reconnectDelay ?? this.retry;
      if (deadline !== undefined) wait = Math.min(wait, Math.max(0, (deadline - Date.now()) / 1000));
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }

  private async *oneStream(deadline: number | undefined): AsyncGenerator<Event> {
    const { path, circle, limit, keepalive } = this.options;
    const params: Record<string, string | number | undefined> = { path, circle, keepalive };
    if (limit !== undefined) params["limit"] = limit - this.received;
    if (deadline !== undefined) {
      params["timeout"] = Math.max(0.001, Math.round(deadline - Date.now()) / 1000);
    }
    const headers: Record<string, string> = { Accept: "text/event-stream",
      "Cache-Control": "no-cache" };
    if (this.lastEventId !== undefined) headers["Last-Event-ID"] = String(this.lastEventId);
    // This connection ends when the stream is closed, or when the server falls silent.
    const connection = new AbortController();
    const stop = () => connection.abort();
    this.controller.signal.addEventListener("abort", stop, { once: true });
    try {
      const response = await this.t.open("GET", "/api/events", { safe: true, params, headers,
        signal: connection.signal });
      const type = response.headers.get("Content-Type") ?? "";
      if (!type.startsWith("text/event-stream")) {
        throw new InvalidResponse(`GET /api/events answered ${type || "no content type"}, ` +
          "not an event stream", { code: "INVALID_RESPONSE", status: response.status });
      }
      // A read may wait a whole keepalive interval; past that the connection is dead.
      const silence = ((keepalive ?? DEFAULT_KEEPALIVE) + this.t.timeout) * 1000;
      for await (const message of this.messages(response, silence, connection)) {
        if (message.data === "") continue; // a lone retry field, or an id past a comment
        const event = decode(message.data);
        this.lastEventId = /^\d+$/.test(message.id) ? Number(message.id) : event.seq;
        this.received += 1;
        yield event;
        if (this.done(deadline)) return;
      }
    } finally {
      this.controller.signal.removeEventListener("abort", stop);
      connection.abort();
    }
  }

  /** The messages of an event stream (the SSE format: fields, then a blank line). */
  private async *messages(response: Response, silence: number,
                          connection: AbortController): AsyncGenerator<Message> {
    const decoder = new TextDecoder();
    let buffer = "";
    let id = "";
    let data: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => connection.abort(), silence);
    };
    try {
      arm();
      for await (const chunk of readBody(response, "GET", "/api/events")) {
        arm();
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
          if (line === "") {
            if (data.length > 0 || id !== "") yield { id, data: data.join("\n") };
            data = [];
            continue;
          }
          if (line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "data") data.push(value);
          else if (field === "id") id = value;
          else if (field === "retry" && /^\d+$/.test(value)) this.retry = Number(value) / 1000;
        }
      }
    } finally {
      clearTimeout(timer);
    }
    // The server closed the stream (its limit or lifetime): the caller decides what next.
  }
}
