/**
 * For protocol test tools that cannot send headers (the MCP conformance suite): a pass-through
 * proxy on 127.0.0.1 that adds Baton's bearer token. It maps only its *own* Host/Origin to the
 * server's, so a foreign Host or Origin (the DNS-rebinding scenario) still reaches Baton unchanged
 * and is judged by Baton's real guard.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuthProxy {
  url: string;
  close(): Promise<void>;
}

export async function startAuthProxy(target: string, token: string): Promise<AuthProxy> {
  const upstream = new URL(target);
  let own = '';
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const localHosts = [`127.0.0.1:${own}`, `localhost:${own}`];
    if (req.headers.host && localHosts.includes(req.headers.host.toLowerCase())) headers.host = upstream.host;
    if (req.headers.origin && localHosts.some((h) => req.headers.origin!.toLowerCase() === `http://${h}`)) headers.origin = `http://${upstream.host}`;
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  own = String((server.address() as AddressInfo).port);
  return {
    url: `http://127.0.0.1:${own}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
