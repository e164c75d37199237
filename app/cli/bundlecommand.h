#pragma once

#include "models/rows/output.h"
#include "models/rows/resources.h"

#include <QString>
#include <QTextStream>

namespace strata::core {
class Engine;
}

namespace strata::cli {

/// `strata [--config P | --demo] bundle export FILE [--hours N]`, run once every source was
/// polled (by cli::run): fetches every volume's snapshots, collects the estate and `hours`
/// hours of history from `engine`, writes FILE (0600) and prints the objects per source, the
/// size in bytes and the body's SHA-256. 0 when written, 1 when it could not be written.
int exportBundleFile(core::Engine &engine,
                     const QString &path,
                     int hours,
                     const QString &user,
                     int timeoutSeconds,
                     const QString &programName,
                     QTextStream &out,
                     QTextStream &err);

/// `strata bundle diff A B [-o table|json]`: what appeared, disappeared and changed from A to
/// B, per system, source and resource. 0 on success (also when they differ), 2 when a bundle
/// cannot be opened.
int diffBundleFiles(const QString &a,
                    const QString &b,
                    rows::Format format,
                    const QString &programName,
                    QTextStream &out,
                    QTextStream &err);

/// `strata --bundle FILE get RESOURCE [...]`: the rows `get` printed when the bundle was made,
/// answered from the bundle with no connection to any system (`now` is the bundle's time, so
/// ages and waits read as they did). Sources that were failing are reported on `err` and left
/// out, as live; exit codes as for `get`, and 2 when the bundle cannot be opened.
int getFromBundle(const QString &path,
                  const QString &resource,
                  const rows::ResourceFilter &filter,
                  rows::Format format,
                  const QString &programName,
                  QTextStream &out,
                  QTextStream &err);

} // namespace strata::cli
