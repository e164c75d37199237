#pragma once

#include "models/core/domain/error.h"
#include "models/core/store/config.h"

#include <QList>
#include <QString>

namespace strata::core {

/// Which rules validateSource() applies.
enum class SourceRules
{
    /// What a config file must satisfy to load (older files without, say, an ONTAP username
    /// keep loading).
    File,
    /// Everything a source entered in the dialog or the web form must satisfy: File plus the
    /// username and secret of ONTAP, the bearer token of a Kubernetes API URL, the subscription
    /// id's GUID form and at least one dataset root with an S3 URL.
    Entered,
};

/// The rules of one source on its own (no other sources), first error first in form order: name,
/// then the kind's fields. Each is Error::Kind::Invalid with the config key the form marks in
/// `field`. Messages are translated (context strata::core::SourceRules). AppConfig::load applies
/// SourceRules::File to every source of a file; SourceAdmin applies SourceRules::Entered to an
/// edit, beside the rules that depend on the other sources and on where the edit comes from.
QList<Error> validateSource(const SourceConfig &config, SourceRules rules = SourceRules::Entered);

/// [A-Za-z0-9._-]+
bool isValidSourceName(const QString &name);

} // namespace strata::core
