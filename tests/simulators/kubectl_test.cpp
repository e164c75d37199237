// The real kubectl against the Kubernetes simulator: TLS with the simulator's CA from a kubeconfig,
// bearer token, discovery (short names), get/create/delete/patch, streamed watches, and refusal of
// a wrong token. Skipped without kubectl unless STRATA_REQUIRE_ALL is set.

#include "tests/simulators/kubetestsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

using strata::sim::kube::KubeJobSpec;
using strata::sim::kube::KubeSimulator;
using namespace strata::testsupport::kubesim;
using Preset = KubeSimulator::Options::Preset;

namespace {

struct KubectlResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

class Kubectl : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_kubectl = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
        if (m_kubectl.isEmpty()) {
            if (qEnvironmentVariableIsSet("STRATA_REQUIRE_ALL")) {
                FAIL() << "kubectl is not installed and STRATA_REQUIRE_ALL is set";
            }
            GTEST_SKIP() << "kubectl is not installed";
        }
        ASSERT_TRUE(m_dir.isValid());
        sim = std::make_unique<RunningKube>(testOptions(Preset::Dgx));
        ASSERT_TRUE(sim->isRunning()) << sim->error().toStdString();
        http = std::make_unique<KubeHttp>(**sim);
        m_kubeconfig = m_dir.filePath(QStringLiteral("kubeconfig"));
        QFile file(m_kubeconfig);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write((*sim)->kubeconfig());
    }

    QStringList baseArgs() const
    {
        return {QStringLiteral("--kubeconfig"),
                m_kubeconfig,
                QStringLiteral("--cache-dir"),
                m_dir.filePath(QStringLiteral("cache")),
                QStringLiteral("--request-timeout=20s")};
    }

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_dir.path());
        env.remove(QStringLiteral("KUBECONFIG"));
        return env;
    }

    KubectlResult run(const QStringList &args, int timeoutMs = 30000)
    {
        QProcess p;
        p.setProcessEnvironment(environment());
        p.start(m_kubectl, baseArgs() + args);
        KubectlResult r;
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            ADD_FAILURE() << "kubectl timed out: " << args.join(QLatin1Char(' ')).toStdString();
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

    /// Re-runs `args` until `done` holds (the simulator's controllers run asynchronously).
    KubectlResult runUntil(const QStringList &args, const std::function<bool(const KubectlResult &)> &done)
    {
        QElapsedTimer clock;
        clock.start();
        KubectlResult r = run(args);
        while (!done(r) && clock.elapsed() < 15000) {
            QThread::msleep(50); // poll interval of this condition wait: kubectl's output has no signal
            r = run(args);
        }
        return r;
    }

    QString writeFile(const QString &name, const QByteArray &content)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(content);
        return path;
    }

    std::unique_ptr<RunningKube> sim;
    std::unique_ptr<KubeHttp> http;
    QString m_kubectl;
    QTemporaryDir m_dir;
    QString m_kubeconfig;
};

int countKind(const QJsonObject &list, const QString &kind)
{
    int n = 0;
    for (const QJsonValue &v : list.value(QStringLiteral("items")).toArray()) {
        n += v.toObject().value(QStringLiteral("kind")).toString() == kind ? 1 : 0;
    }
    return n;
}

} // namespace

TEST_F(Kubectl, GetNodesPodsJobsAllNamespacesAsJson)
{
    const KubectlResult r = run({QStringLiteral("get"),
                                 QStringLiteral("nodes,pods,jobs"),
                                 QStringLiteral("-A"),
                                 QStringLiteral("-o"),
                                 QStringLiteral("json")});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    const QJsonObject list = r.json();
    EXPECT_EQ(countKind(list, QStringLiteral("Node")), 2);
    EXPECT_EQ(countKind(list, QStringLiteral("Pod")), 13);
    EXPECT_EQ(countKind(list, QStringLiteral("Job")), 13);
    for (const QJsonValue &v : list.value(QStringLiteral("items")).toArray()) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("kind")) == QStringLiteral("Pod")) {
            EXPECT_EQ(o.value(QStringLiteral("status")).toObject().value(QStringLiteral("phase")).toString(),
                      QStringLiteral("Running"));
        }
    }
}

TEST_F(Kubectl, GetNamespacesPvcsQueuesAndPodGroupsByShortName)
{
    const KubectlResult ns = run({QStringLiteral("get"), QStringLiteral("ns")});
    ASSERT_EQ(ns.exitCode, 0) << ns.err.toStdString();
    for (const char *name : {"runai-team-a", "runai-team-b", "runai-team-c", "runai-team-d", "default"}) {
        EXPECT_TRUE(ns.out.contains(name)) << name;
    }

    const KubectlResult pvc = run({QStringLiteral("get"), QStringLiteral("pvc"), QStringLiteral("-A")});
    ASSERT_EQ(pvc.exitCode, 0) << pvc.err.toStdString();
    EXPECT_TRUE(pvc.out.contains("imagenet-train-scratch"));
    EXPECT_TRUE(pvc.out.contains("criteo-embeddings"));
    const KubectlResult pv =
        run({QStringLiteral("get"), QStringLiteral("pv"), QStringLiteral("-o"), QStringLiteral("json")});
    ASSERT_EQ(pv.exitCode, 0) << pv.err.toStdString();
    bool tridentName = false;
    for (const QJsonValue &v : pv.json().value(QStringLiteral("items")).toArray()) {
        tridentName = tridentName
                      || v.toObject()
                                 .value(QStringLiteral("spec"))
                                 .toObject()
                                 .value(QStringLiteral("csi"))
                                 .toObject()
                                 .value(QStringLiteral("volumeAttributes"))
                                 .toObject()
                                 .value(QStringLiteral("internalName"))
                             == QStringLiteral("trident_pvc_3f2c9a1e_5b7d_4c1a_9e8f_0a1b2c3d4e5f");
    }
    EXPECT_TRUE(tridentName);

    const KubectlResult queues = run({QStringLiteral("get"), QStringLiteral("queues")});
    ASSERT_EQ(queues.exitCode, 0) << queues.err.toStdString();
    for (const char *name : {"team-a", "team-b", "team-c", "team-d", "default-queue"}) {
        EXPECT_TRUE(queues.out.contains(name)) << name;
    }
    const KubectlResult teamA = run({QStringLiteral("get"),
                                     QStringLiteral("queue"),
                                     QStringLiteral("team-a"),
                                     QStringLiteral("-o"),
                                     QStringLiteral("json")});
    ASSERT_EQ(teamA.exitCode, 0) << teamA.err.toStdString();
    const QJsonObject gpu = teamA.json()
                                .value(QStringLiteral("spec"))
                                .toObject()
                                .value(QStringLiteral("resources"))
                                .toObject()
                                .value(QStringLiteral("gpu"))
                                .toObject();
    EXPECT_EQ(gpu.value(QStringLiteral("quota")).toDouble(), 4.0);
    EXPECT_EQ(teamA.json().value(QStringLiteral("spec")).toObject().value(QStringLiteral("parentQueue")),
              QStringLiteral("default-parent-queue"));

    const KubectlResult pg =
        run({QStringLiteral("get"), QStringLiteral("pg"), QStringLiteral("-n"), QStringLiteral("runai-team-c")});
    ASSERT_EQ(pg.exitCode, 0) << pg.err.toStdString();
    EXPECT_TRUE(pg.out.contains("pg-c-4-gg"));
    // kubectl finds podgroups through discovery in v2alpha2 (KAI's only version), not the
    // group's preferred v2.
    const KubectlResult podgroups = run({QStringLiteral("get"),
                                         QStringLiteral("podgroups"),
                                         QStringLiteral("-n"),
                                         QStringLiteral("runai-team-c"),
                                         QStringLiteral("-o"),
                                         QStringLiteral("json")});
    ASSERT_EQ(podgroups.exitCode, 0) << podgroups.err.toStdString();
    EXPECT_TRUE(podgroups.out.contains("pg-c-4-gg"));
    EXPECT_TRUE(podgroups.out.contains("scheduling.run.ai/v2alpha2"));
    const KubectlResult vs = run({QStringLiteral("get"), QStringLiteral("vs"), QStringLiteral("-A")});
    ASSERT_EQ(vs.exitCode, 0) << vs.err.toStdString();
    EXPECT_TRUE(vs.out.contains("imagenet-train-scratch-snap-1"));
}

TEST_F(Kubectl, DeleteJobThenCreateFromYamlGetsScheduledAndRuns)
{
    const KubectlResult del = run({QStringLiteral("delete"),
                                   QStringLiteral("job"),
                                   QStringLiteral("d-1-gggg"),
                                   QStringLiteral("-n"),
                                   QStringLiteral("runai-team-d")});
    ASSERT_EQ(del.exitCode, 0) << del.err.toStdString();
    EXPECT_TRUE(del.out.contains("job.batch \"d-1-gggg\" deleted")) << del.out.toStdString();
    const KubectlResult gone = run({QStringLiteral("get"),
                                    QStringLiteral("pods"),
                                    QStringLiteral("-n"),
                                    QStringLiteral("runai-team-d"),
                                    QStringLiteral("-o"),
                                    QStringLiteral("json")});
    EXPECT_EQ(gone.json().value(QStringLiteral("items")).toArray().size(), 0);

    const QString yaml = writeFile(QStringLiteral("job.yaml"), R"(apiVersion: batch/v1
kind: Job
metadata:
  name: kubectl-train
  namespace: runai-team-a
  labels:
    kai.scheduler/queue: team-a
    user: alice
spec:
  template:
    metadata:
      labels:
        kai.scheduler/queue: team-a
        user: alice
    spec:
      schedulerName: kai-scheduler
      priorityClassName: train
      restartPolicy: Never
      containers:
      - name: main
        image: nvcr.io/nvidia/pytorch:24.05-py3
        resources:
          limits:
            nvidia.com/gpu: "2"
)");
    const KubectlResult created = run({QStringLiteral("create"), QStringLiteral("-f"), yaml});
    ASSERT_EQ(created.exitCode, 0) << created.err.toStdString();
    EXPECT_TRUE(created.out.contains("job.batch/kubectl-train created")) << created.out.toStdString();

    const QStringList getPod{QStringLiteral("get"),
                             QStringLiteral("pods"),
                             QStringLiteral("-n"),
                             QStringLiteral("runai-team-a"),
                             QStringLiteral("-l"),
                             QStringLiteral("job-name=kubectl-train"),
                             QStringLiteral("-o"),
                             QStringLiteral("json")};
    auto firstPod = [](const KubectlResult &r) {
        return r.json().value(QStringLiteral("items")).toArray().first().toObject();
    };
    const KubectlResult bound = runUntil(getPod, [&](const KubectlResult &r) {
        return !firstPod(r)
                    .value(QStringLiteral("spec"))
                    .toObject()
                    .value(QStringLiteral("nodeName"))
                    .toString()
                    .isEmpty();
    });
    const QJsonObject pod = firstPod(bound);
    EXPECT_EQ(pod.value(QStringLiteral("spec")).toObject().value(QStringLiteral("nodeName")).toString(),
              QStringLiteral("dgx1-2")); // d-1-gggg's GPUs were freed there
    EXPECT_EQ(pod.value(QStringLiteral("metadata"))
                  .toObject()
                  .value(QStringLiteral("annotations"))
                  .toObject()
                  .value(QStringLiteral("runai-gpu")),
              QStringLiteral("4,5"));

    (*sim)->tick(5, std::chrono::seconds(1));
    const KubectlResult running = run({QStringLiteral("get"),
                                       QStringLiteral("pods"),
                                       QStringLiteral("-n"),
                                       QStringLiteral("runai-team-a"),
                                       QStringLiteral("-l"),
                                       QStringLiteral("job-name=kubectl-train"),
                                       QStringLiteral("-o"),
                                       QStringLiteral("jsonpath={.items[0].status.phase}")});
    EXPECT_EQ(running.out, QByteArray("Running"));
}

TEST_F(Kubectl, WatchStreamsPodEventsAsJobsComeAndGo)
{
    QProcess watch;
    watch.setProcessEnvironment(environment());
    watch.start(m_kubectl,
                baseArgs()
                    + QStringList{QStringLiteral("get"),
                                  QStringLiteral("pods"),
                                  QStringLiteral("-n"),
                                  QStringLiteral("runai-team-a"),
                                  QStringLiteral("--watch"),
                                  QStringLiteral("--output-watch-events")});
    ASSERT_TRUE(watch.waitForStarted());
    QByteArray seen;
    auto waitFor = [&](const std::function<bool()> &done) {
        QElapsedTimer clock;
        clock.start();
        while (!done() && clock.elapsed() < 15000 && watch.state() == QProcess::Running) {
            watch.waitForReadyRead(100);
            seen += watch.readAllStandardOutput();
        }
        return done();
    };
    // The initial list: team-a's three running pods.
    ASSERT_TRUE(waitFor([&] {
        return seen.contains("a-2-gg-");
    })) << seen.toStdString();
    ASSERT_TRUE(waitFor([&] {
        return (*sim)->watchCount() >= 1;
    }));

    KubeJobSpec spec;
    spec.namespace_ = QStringLiteral("runai-team-a");
    spec.name = QStringLiteral("watched");
    spec.queue = QStringLiteral("team-a");
    spec.gpuMilli = 500;
    ASSERT_EQ(
        http->post(QStringLiteral("/apis/batch/v1/namespaces/runai-team-a/jobs"), KubeSimulator::jobManifest(spec))
            .status,
        201);
    ASSERT_TRUE(waitFor([&] {
        return seen.contains("ADDED") && seen.contains("watched-");
    })) << seen.toStdString();
    ASSERT_EQ(http->del(QStringLiteral("/apis/batch/v1/namespaces/runai-team-a/jobs/watched")).status, 200);
    ASSERT_TRUE(waitFor([&] {
        for (const QByteArray &line : seen.split('\n')) {
            if (line.startsWith("DELETED") && line.contains("watched-")) {
                return true;
            }
        }
        return false;
    })) << seen.toStdString();
    watch.kill();
    watch.waitForFinished();
}

TEST_F(Kubectl, PatchQueueQuotaReachesTheScheduler)
{
    const KubectlResult r = run({QStringLiteral("patch"),
                                 QStringLiteral("queue"),
                                 QStringLiteral("team-a"),
                                 QStringLiteral("--type"),
                                 QStringLiteral("merge"),
                                 QStringLiteral("-p"),
                                 QStringLiteral(R"({"spec":{"resources":{"gpu":{"quota":6}}}})")});
    ASSERT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_TRUE(r.out.contains("queue.scheduling.run.ai/team-a patched")) << r.out.toStdString();
    (*sim)->tick(1, std::chrono::milliseconds(0));
    double quota = 0;
    for (const QJsonValue &p : (*sim)->schedulerState().value(QStringLiteral("projects")).toArray()) {
        if (p.toObject().value(QStringLiteral("name")) == QStringLiteral("team-a")) {
            quota = p.toObject().value(QStringLiteral("quota")).toDouble();
        }
    }
    EXPECT_EQ(quota, 6.0);
}

TEST_F(Kubectl, WrongTokenIsRefused)
{
    const KubectlResult r =
        run({QStringLiteral("--token=wrong"), QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-A")});
    EXPECT_NE(r.exitCode, 0);
    EXPECT_TRUE(r.err.contains("Unauthorized") || r.err.contains("must be logged in")) << r.err.toStdString();
}
