#pragma once

#include "models/core/domain/clock.h"
#include "models/core/runtime/engine.h"
#include "models/core/store/config.h"
#include "models/core/store/credentialstore.h"
#include "simulators/common/serverthread.h"
#include "simulators/ontap/ontapsimulator.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace strata::testsupport {

/// An in-process ONTAP simulator (demo estate unless told otherwise) plus a SourceConfig that
/// points at it with its certificate pinned and its password in an in-memory store.
class SimFixture : public ::testing::Test
{
protected:
    sim::ServerThread thread;
    sim::ontap::OntapSimulator *simulator = nullptr;
    QTemporaryDir dir;
    QString caFile;
    core::InMemoryCredentialStore credentials;

    void startSimulator(sim::ontap::OntapSimulatorOptions options = {})
    {
        options.tickInterval = std::chrono::milliseconds(0); // deterministic: no background changes
        options.jobDurationMin = std::chrono::milliseconds(50);
        options.jobDurationMax = std::chrono::milliseconds(150);
        QString error;
        simulator = sim::ontap::OntapSimulator::startOnThread(thread, options, &error);
        ASSERT_NE(simulator, nullptr) << error.toStdString();
        caFile = dir.filePath(QStringLiteral("ca.pem"));
        QFile f(caFile);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(simulator->certificatePem());
        credentials.set(core::credentialKey(QStringLiteral("ontap-ai")), options.password);
    }

    void SetUp() override { startSimulator(); }

    core::SourceConfig sourceConfig(const QString &name = QStringLiteral("ontap-ai")) const
    {
        core::SourceConfig s;
        s.name = name;
        s.kind = core::SourceKind::Ontap;
        s.url = simulator->baseUrl();
        s.username = simulator->options().username;
        s.password = core::SecretRef{core::SecretRef::Kind::Keychain, core::credentialKey(QStringLiteral("ontap-ai"))};
        s.caFile = caFile;
        s.configIntervalSeconds = 3600;
        s.perfIntervalSeconds = 3600;
        return s;
    }

    static bool waitFor(const std::function<bool()> &done, int timeoutMs = 15000)
    {
        return QTest::qWaitFor(done, timeoutMs);
    }
};

} // namespace strata::testsupport
