/**
 * The local HTTP server of headless mode (and of the Electron app, for MCP): binds 127.0.0.1 only,
 * guards every request (Host, Origin, token, body size) before any handler runs, then serves
 * /health, /login, the contract's JSON routes, server-sent events, extra routes (MCP, ingest) and
 * the built renderer.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HTTP_API_PREFIX, HTTP_EVENTS_PATH, HTTP_LOGIN_PATH } from '../../../shared/bridge.js';
import type { ApiEvent, HealthInfo } from '../../../shared/api-types.js';
import type { ApiHandlers } from '../../../shared/contract.js';
import { authCookie, bearerToken, checkHostAndOrigin, uiCookie, type GuardInput } from './request-guard.js';
import { serveStatic } from './static-files.js';
import { handleApiCall } from './api-route.js';
import { redactForOutput } from '../redaction/redact.js';
import { sendJson, sendError, readBody, drainBody, BodyTooLargeError } from './http-io.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/** A route added by another module (MCP, ingest). Guards have already run when `handle` is called. */
export interface HttpRoute {
  path: string;
  methods: readonly string[];
  /**
   * Who may call: true = the token or the UI's login (everything that reads or changes data);
   * 'ui' = only the UI's secret (as the login cookie, or as a bearer by a local CLI that reads it from
   * the data dir), never the agents' token; false = anyone.
   */
  auth: boolean | 'ui';
  handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void>;
}

export interface TokenCheck {
  matches(candidate: string | null | undefined): boolean;
  get(): string;
}

export interface HttpServerOptions {
  port: number;
  /** The token agents (MCP) and the CLI send as `Authorization: Bearer`. */
  tokens: TokenCheck;
  /** The browser UI's login secret (the cookie a login link sets): unlike the token, never given to agents. */
  uiSession: TokenCheck;
  api: ApiHandlers;
  health(): HealthInfo;
  subscribe(listener: (event: ApiEvent) => void): () => void;
  routes?: HttpRoute[];
  /** Built renderer folder; null serves a hint instead of the UI. */
  staticDir: string | null;
  /** One-time login codes accepted by /login?code=… (consumed on use). */
  loginCodes?: Set<string>;
  log?: (line: string) => void;
}

export interface RunningHttpServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(
      `Port ${port} on 127.0.0.1 is already in use. Stop the other process, or choose another port ` +
        `with \`baton serve --port <N>\` (or the "port" setting).`,
    );
    this.name = 'PortInUseError';
  }
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const sockets = new Set<Socket>();
  let port = options.port;
  const server = http.createServer((req, res) => {
    handleRequest(req, res, options, port).catch((err: unknown) => {
      options.log?.(`request failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) sendError(res, 500, 'internal', 'Internal error');
      else res.destroy();
    });
  });
  // `Expect: 100-continue` with a body over the limit: refused before the client sends it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return refuseTooLarge(req, res, false);
    res.writeContinue();
    server.emit('request', req, res);
  });
  server.headersTimeout = 15_000;
  server.requestTimeout = 60_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(options.port) : err);
    });
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function guardInput(req: IncomingMessage): GuardInput {
  return {
    host: req.headers.host,
    origin: req.headers.origin,
    authorization: req.headers.authorization,
    cookie: req.headers.cookie,
  };
}

async function handleRequest(req: IncomingMessage, res: ServerResponse, options: HttpServerOptions, port: number) {
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  const input = guardInput(req);
  const verdict = checkHostAndOrigin(input, port);
  if (!verdict.ok) return sendError(res, verdict.status, 'forbidden', verdict.message);

  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  const method = req.method ?? 'GET';
  const bearer = bearerToken(input);
  // The UI: its login cookie, or its secret presented by a local CLI (`baton login-link`).
  const asUi = options.uiSession.matches(uiCookie(input)) || options.uiSession.matches(bearer);
  const authorized = asUi || options.tokens.matches(bearer);

  if (url.pathname === '/health') {
    if (method !== 'GET' && method !== 'HEAD') return sendError(res, 405, 'bad_request', 'Use GET /health');
    return sendJson(res, 200, options.health());
  }

  if (url.pathname === HTTP_LOGIN_PATH) return handleLogin(url, res, options);

  const extra = options.routes?.find((r) => r.path === url.pathname);
  const isApi = url.pathname.startsWith(HTTP_API_PREFIX);
  if (extra || isApi) {
    const needs = extra ? extra.auth : true;
    if ((needs === 'ui' && !asUi) || (needs === true && !authorized)) {
      res.setHeader('www-authenticate', 'Bearer realm="baton"');
      return sendError(res, 401, 'unauthorized', 'Missing or wrong token. Send `Authorization: Bearer <token>` (see `baton token`).');
    }
    if (url.pathname === HTTP_EVENTS_PATH) return streamEvents(req, res, options);
    let body: Buffer;
    try {
      body = method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : await readBody(req, MAX_BODY_BYTES);
    } catch (err) {
      if (err instanceof BodyTooLargeError) return refuseTooLarge(req, res, true);
      throw err;
    }
    if (extra) {
      if (!extra.methods.includes(method)) return sendError(res, 405, 'bad_request', `Method ${method} not allowed on ${extra.path}`);
      return extra.handle(req, res, body);
    }
    if (method !== 'POST') return sendError(res, 405, 'bad_request', 'API calls are POST requests with a JSON body.');
    // `?reveal=1`: the person at the UI asked to see secrets. Only the UI's login may; the token
    // cannot (agents hold it), and asking with it is refused rather than quietly redacted.
    const reveal = url.searchParams.get('reveal') === '1';
    if (reveal && !asUi) return sendError(res, 403, 'forbidden', 'Revealing secrets is for the person at the UI: log in with a login link (`baton login-link`). The access token cannot reveal.');
    return handleApiCall(url.pathname.slice(HTTP_API_PREFIX.length), body, options.api, res, options.log, { reveal });
  }

  if (method !== 'GET' && method !== 'HEAD') return sendError(res, 405, 'bad_request', 'Not allowed');
  return serveStatic(options.staticDir, url.pathname, res);
}

/**
 * 413 for a body over the limit, delivered reliably: the body still on its way is read and dropped
 * first (bounded), so closing the connection afterwards cannot reset it under the client's feet.
 * `sent`: the client is sending the body (false when it waits for 100 Continue and will not).
 */
async function refuseTooLarge(req: IncomingMessage, res: ServerResponse, sent: boolean): Promise<void> {
  const drained = sent ? await drainBody(req) : true;
  res.setHeader('connection', 'close');
  sendError(res, 413, 'bad_request', `Request body larger than ${MAX_BODY_BYTES} bytes.`);
  // A body past the drain limit (or a stalled one) cannot be waited for: the connection goes.
  if (!drained) res.once('finish', () => req.socket.destroy());
}

function handleLogin(url: URL, res: ServerResponse, options: HttpServerOptions) {
  const code = url.searchParams.get('code');
  const token = url.searchParams.get('token');
  const viaCode = code !== null && options.loginCodes?.delete(code) === true;
  // Not the agents' token: it would turn into the UI's login, which can reveal secrets.
  if (!viaCode && !options.uiSession.matches(token)) {
    res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('This login link is not valid (each one works once). Run `baton login-link` in a terminal: it prints a fresh one.\n');
    return;
  }
  res.writeHead(302, { 'set-cookie': authCookie(options.uiSession.get()), location: '/', 'cache-control': 'no-store' });
  res.end();
}

function streamEvents(req: IncomingMessage, res: ServerResponse, options: HttpServerOptions) {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  res.write(': connected\n\n');
  // Events pass the redactor too (notices can quote a title); chained so they keep their order.
  let queue = Promise.resolve();
  const unsubscribe = options.subscribe((event) => {
    queue = queue.then(async () => void res.write(`data: ${JSON.stringify(await redactForOutput(event))}\n\n`)).catch(() => undefined);
  });
  const keepAlive = setInterval(() => res.write(': ping\n\n'), 25_000);
  req.on('close', () => {
    clearInterval(keepAlive);
    unsubscribe();
  });
}
