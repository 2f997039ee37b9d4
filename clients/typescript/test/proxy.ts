// A loopback proxy in front of the server that fails on demand: it answers the next
// requests itself (a 503 with Retry-After, a 429, a page that is not our error shape),
// cuts a response after its status line and `cut` chunks of its body (the request
// reached the server: only the answer is lost), or passes them through.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Step =
  | { answer: number; headers?: Record<string, string>; body?: string }
  | { cut: number }
  | "pass";

export class Proxy {
  readonly plan: Step[] = [];
  readonly seen: { method: string; path: string; headers: http.IncomingHttpHeaders }[] = [];
  private readonly server: http.Server;
  private readonly target: URL;

  constructor(target: string) {
    this.target = new URL(target);
    this.server = http.createServer((request, response) => this.handle(request, response));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async start(): Promise<Proxy> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    this.seen.push({ method: request.method ?? "", path: request.url ?? "",
      headers: request.headers });
    const step = this.plan.shift() ?? "pass";
    if (typeof step === "object" && "answer" in step) {
      request.resume();
      response.writeHead(step.answer, { "Content-Type": "application/json", ...step.headers });
      response.end(step.body ?? "");
      return;
    }
    const upstream = http.request({ host: this.target.hostname, port: this.target.port,
      method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      if (step === "pass") {
        answer.pipe(response);
        return;
      }
      let left = step.cut;
      const cut = () => {
        answer.destroy();
        response.socket?.destroy();
      };
      response.flushHeaders();
      if (left === 0) {
        setTimeout(cut, 20);
        return;
      }
      answer.on("data", (chunk: Buffer) => {
        if (left <= 0) return;
        response.write(chunk);
        left -= 1;
        if (left === 0) setTimeout(cut, 50);
      });
    });
    upstream.on("error", () => response.socket?.destroy());
    request.pipe(upstream);
  }
}
