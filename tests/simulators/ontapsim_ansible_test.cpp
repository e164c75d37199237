// The vendor's own client against the simulator: Ansible's netapp.ontap modules (Python requests,
// TLS verified against the simulator's certificate) must page, create and delete as against ONTAP.

#include "tests/simulators/ontaptestsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>

#include <gtest/gtest.h>

using strata::sim::ontap::OntapSimulator;
using namespace strata::testsupport::ontapsim;

namespace {

class OntapSimAnsible : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_playbook = QStandardPaths::findExecutable(QStringLiteral("ansible-playbook"));
        if (m_playbook.isEmpty()) {
            if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {
                FAIL() << "ansible-playbook is not installed and STRATA_REQUIRE_ALL is set";
            }
            GTEST_SKIP() << "ansible-playbook is not installed";
        }
        ASSERT_TRUE(m_dir.isValid());
        QDir(m_dir.path()).mkpath(QStringLiteral("home"));
    }

    void start(OntapSimulator::Options options)
    {
        sim = std::make_unique<RunningSimulator>(std::move(options));
        ASSERT_TRUE(sim->isRunning()) << sim->error().toStdString();
        m_caPath = m_dir.filePath(QStringLiteral("ca.pem"));
        QFile ca(m_caPath);
        ASSERT_TRUE(ca.open(QIODevice::WriteOnly));
        ca.write((*sim)->certificatePem());
    }

    /// Renders tests/simulators/ansible/<name> with `vars` (plus host/port/credentials/output),
    /// runs it and returns the JSON the playbook wrote to @OUTPUT@.
    QJsonDocument runPlaybook(const QString &name, QHash<QString, QString> vars)
    {
        QFile templ(QStringLiteral(STRATA_SOURCE_DIR "/tests/simulators/ansible/") + name);
        EXPECT_TRUE(templ.open(QIODevice::ReadOnly)) << templ.fileName().toStdString();
        QString text = QString::fromUtf8(templ.readAll());
        const QString output = m_dir.filePath(QStringLiteral("out-%1.json").arg(++m_runs));
        const QUrl base((*sim)->baseUrl());
        vars.insert(QStringLiteral("HOST"), base.host());
        vars.insert(QStringLiteral("PORT"), QString::number(base.port()));
        vars.insert(QStringLiteral("USERNAME"), (*sim)->options().username);
        vars.insert(QStringLiteral("PASSWORD"), (*sim)->options().password);
        vars.insert(QStringLiteral("OUTPUT"), output);
        for (auto it = vars.cbegin(); it != vars.cend(); ++it) {
            text.replace(QLatin1Char('@') + it.key() + QLatin1Char('@'), it.value());
        }
        const QString rendered = m_dir.filePath(QStringLiteral("play-%1.yml").arg(m_runs));
        QFile out(rendered);
        EXPECT_TRUE(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // Keep Ansible away from the real home directory and from interactive prompts.
        env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
        env.insert(QStringLiteral("ANSIBLE_LOCAL_TEMP"), m_dir.filePath(QStringLiteral("local-tmp")));
        env.insert(QStringLiteral("ANSIBLE_REMOTE_TEMP"), m_dir.filePath(QStringLiteral("remote-tmp")));
        env.insert(QStringLiteral("ANSIBLE_HOST_KEY_CHECKING"), QStringLiteral("False"));
        env.insert(QStringLiteral("ANSIBLE_RETRY_FILES_ENABLED"), QStringLiteral("False"));
        env.insert(QStringLiteral("ANSIBLE_NOCOLOR"), QStringLiteral("1"));
        env.insert(QStringLiteral("ANSIBLE_LOCALHOST_WARNING"), QStringLiteral("False"));
        env.insert(QStringLiteral("ANSIBLE_INVENTORY_UNPARSED_WARNING"), QStringLiteral("False"));
        env.insert(QStringLiteral("ANSIBLE_PYTHON_INTERPRETER"), QStringLiteral("/usr/bin/python3"));
        env.insert(QStringLiteral("ANSIBLE_CONFIG"), m_dir.filePath(QStringLiteral("none.cfg")));
        // requests verifies TLS against the simulator's certificate (validate_certs: true).
        env.insert(QStringLiteral("REQUESTS_CA_BUNDLE"), m_caPath);

        QProcess process;
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(m_dir.path());
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(m_playbook,
                      {QStringLiteral("-i"),
                       QStringLiteral("localhost,"),
                       QStringLiteral("-c"),
                       QStringLiteral("local"),
                       rendered});
        const bool finished = process.waitForFinished(120000);
        const QByteArray log = process.readAll();
        EXPECT_TRUE(finished) << "ansible-playbook timed out\n" << log.toStdString();
        EXPECT_EQ(process.exitCode(), 0) << log.toStdString();
        QFile result(output);
        if (!result.open(QIODevice::ReadOnly)) {
            ADD_FAILURE() << "no result written\n" << log.toStdString();
            return {};
        }
        return QJsonDocument::fromJson(result.readAll());
    }

    std::unique_ptr<RunningSimulator> sim;

private:
    QString m_playbook;
    QTemporaryDir m_dir;
    QString m_caPath;
    int m_runs = 0;
};

} // namespace

TEST_F(OntapSimAnsible, RestInfo_MoreVolumesThanOnePage_FollowsNextLinksToTheEnd)
{
    OntapSimulator::Options options = RunningSimulator::testOptions();
    options.preset = OntapSimulator::Options::Preset::Generated;
    options.volumeCount = 1100;
    options.pageCap = 400; // Ansible asks for 1024 per page and gets 400
    start(options);
    const int before = (*sim)->requestCount();

    const QJsonObject volumes = runPlaybook(QStringLiteral("rest_info_volumes.yml"), {}).object();
    EXPECT_EQ(volumes.value(QStringLiteral("num_records")).toInt(), (*sim)->volumeCount());
    EXPECT_EQ(volumes.value(QStringLiteral("num_records")).toInt(), 1100);
    const QJsonArray records = volumes.value(QStringLiteral("records")).toArray();
    QSet<QString> uuids;
    for (const QJsonValue &r : records) {
        const QJsonObject o = r.toObject();
        uuids.insert(o.value(QStringLiteral("uuid")).toString());
        EXPECT_TRUE(o.value(QStringLiteral("space")).toObject().contains(QStringLiteral("used")));
        EXPECT_EQ(o.value(QStringLiteral("state")).toString(), QStringLiteral("online"));
    }
    EXPECT_EQ(uuids.size(), 1100) << "every volume exactly once";
    // /api/cluster for the version, then three pages.
    EXPECT_GE((*sim)->requestCount() - before, 4);
}

TEST_F(OntapSimAnsible, Snapshot_PresentThenAbsent_ThroughJobs)
{
    start(RunningSimulator::testOptions());
    const auto volume = (*sim)->volumeByName(QStringLiteral("svm_ai"), QStringLiteral("chest_xray"));
    ASSERT_TRUE(volume);
    const QHash<QString, QString> vars{{QStringLiteral("SNAPSHOT"), QStringLiteral("ansible_commit_1")},
                                       {QStringLiteral("VOLUME"), QStringLiteral("chest_xray")},
                                       {QStringLiteral("VSERVER"), QStringLiteral("svm_ai")}};
    auto withState = [&](const char *state) {
        QHash<QString, QString> v = vars;
        v.insert(QStringLiteral("STATE"), QString::fromLatin1(state));
        return v;
    };

    const QJsonObject created = runPlaybook(QStringLiteral("snapshot.yml"), withState("present")).object();
    EXPECT_TRUE(created.value(QStringLiteral("changed")).toBool());
    EXPECT_TRUE((*sim)->snapshotNames(volume->uuid).contains(QStringLiteral("ansible_commit_1")));
    const auto made = (*sim)->volume(volume->uuid);
    EXPECT_EQ(made->snapshots.back().comment, QStringLiteral("made by Ansible"));
    bool postJob = false;
    for (const auto &job : (*sim)->jobs()) {
        postJob = postJob
                  || (job.description == QStringLiteral("POST /api/storage/volumes/%1/snapshots").arg(volume->uuid)
                      && job.state == QLatin1String("success"));
    }
    EXPECT_TRUE(postJob);

    // Idempotent: the module finds it (GET with svm.name and name filters) and changes nothing.
    const QJsonObject again = runPlaybook(QStringLiteral("snapshot.yml"), withState("present")).object();
    EXPECT_FALSE(again.value(QStringLiteral("changed")).toBool());
    EXPECT_EQ((*sim)->snapshotNames(volume->uuid).count(QStringLiteral("ansible_commit_1")), 1);

    const QJsonObject deleted = runPlaybook(QStringLiteral("snapshot.yml"), withState("absent")).object();
    EXPECT_TRUE(deleted.value(QStringLiteral("changed")).toBool());
    EXPECT_FALSE((*sim)->snapshotNames(volume->uuid).contains(QStringLiteral("ansible_commit_1")));
    EXPECT_EQ((*sim)->snapshotCount(volume->uuid), volume->snapshotCount());
}
