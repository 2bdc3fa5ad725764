/**
 * The built renderer, served from `staticDir` only: `/` is the single-page app too (it picks
 * the remembered or the browser's language and moves itself to `/{locale}/`, which the server
 * cannot know), `/{locale}/...` is the app (index.html unless a real file matches), other
 * paths are files or 404. When the renderer is not built, a short page says how to build it.
 */
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import sirv from 'sirv';
import type { RequestTarget } from './routes';

type SirvHandler = ReturnType<typeof sirv>;

export interface StaticUi {
  /** Answers GET/HEAD for a non-API path; false when nothing matched (caller sends 404). */
  handle(req: IncomingMessage, res: ServerResponse, target: RequestTarget): boolean;
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Deskstore</title></head>
<body>
<h1>Deskstore</h1>
<p>The user interface is not built, so there is nothing to show here yet.</p>
<p>Build it with <code>npm run build</code> (from the project folder), then reload this page.</p>
<p>The CKAN-compatible API works meanwhile, e.g. <code>/api/3/action/status_show</code>.</p>
</body>
</html>
`;

export function createStaticUi(staticDir: string | undefined): StaticUi {
  let serve: SirvHandler | null = null;

  // Looked up per request until found, so a renderer built after start-up is picked up
  // without a restart; sirv then indexes the folder once (production mode, no disk access
  // per request, and only indexed files can ever be served).
  const handler = (): SirvHandler | null => {
    if (serve || !staticDir || !existsSync(join(staticDir, 'index.html'))) return serve;
    serve = sirv(staticDir, {
      etag: true,
      dotfiles: false,
      setHeaders(res, pathname) {
        // Vite puts content-hashed names under /assets/: cache forever. Everything else
        // (index.html above all) must be revalidated so a rebuilt UI shows up.
        res.setHeader('Cache-Control', pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    return serve;
  };

  const serveFile = (serveWith: SirvHandler, req: IncomingMessage, res: ServerResponse, path: string): boolean => {
    if (!isSafePath(path)) return false;
    let missed = false;
    const original = req.url;
    // sirv reads the path from req.url (synchronously); point it at the locale-free path.
    req.url = path;
    try {
      serveWith(req, res, () => {
        missed = true;
      });
    } finally {
      req.url = original;
    }
    return !missed;
  };

  return {
    handle(req, res, target) {
      const serveWith = handler();
      if (target.locale === null) {
        if (target.path === '/') {
          if (serveWith) return serveFile(serveWith, req, res, '/index.html');
          notBuilt(res);
          return true;
        }
        return serveWith !== null && serveFile(serveWith, req, res, target.path);
      }
      if (target.rawPath === `/${target.locale}`) {
        redirect(res, `/${target.locale}/${target.rawQuery ? `?${target.rawQuery}` : ''}`);
        return true;
      }
      if (!serveWith) {
        notBuilt(res);
        return true;
      }
      // The UI reads the locale from the URL, so every path under a locale is the app;
      // real files still win so a relative asset URL would also resolve.
      if (target.path !== '/' && serveFile(serveWith, req, res, target.path)) return true;
      return serveFile(serveWith, req, res, '/index.html');
    },
  };
}

/**
 * Refuses anything that could climb out of staticDir once decoded (`..%2f`, `%5c`, NUL),
 * before sirv sees it. sirv only serves files it indexed, so this is a second fence.
 */
function isSafePath(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return false;
  return !decoded.split('/').some((segment) => segment === '..' || segment === '.');
}

function redirect(res: ServerResponse, location: string): void {
  res.statusCode = 302;
  res.setHeader('Location', location);
  res.setHeader('Content-Length', 0);
  res.end();
}

function notBuilt(res: ServerResponse): void {
  const body = Buffer.from(NOT_BUILT_PAGE, 'utf8');
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/html;charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
