#pragma once

// Internal to strata::web: the web server's controllers, one file each (web/<name>routes.cpp),
// registered by WebServer in this order (routes match in registration order; the resource
// catch-all GET /api/v1/<resource> comes last). web/webserver.h documents the routes.

namespace strata::web {

class Router;

/// GET /, /static/<path>, /healthz, /metrics and /api/v1/version (no login).
void registerSiteRoutes(Router &router);
/// POST /api/v1/login and /api/v1/logout, GET /api/v1/session.
void registerSessionRoutes(Router &router);
/// GET and POST /api/v1/users, DELETE /api/v1/users/<name> (admin).
void registerUserRoutes(Router &router);
/// POST /api/v1/sources, DELETE /api/v1/sources/<name> (admin).
void registerSourceRoutes(Router &router);
/// GET /api/v1/history/projects and /api/v1/history/volumes.
void registerHistoryRoutes(Router &router);
/// GET /api/v1/chargeback.
void registerChargebackRoutes(Router &router);
/// GET /api/v1/jobs/<source>/<ns>/<name>/diagnosis and /api/v1/diagnosis.
void registerJobRoutes(Router &router);
/// GET /api/v1/audit and /api/v1/bundle.
void registerSupportRoutes(Router &router);
/// POST /api/v1/actions/preview and /api/v1/actions, GET /api/v1/actions/<id>.
void registerActionRoutes(Router &router);
/// GET /api/v1/<resource>: the rows layer's resources and the features' one-segment routes.
void registerResourceRoutes(Router &router);

} // namespace strata::web
