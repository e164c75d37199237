// KubernetesSource against a scripted API server (sim::HttpServer) that serves KAI's CRDs at
// their real versions (queues v2, podgroups v2alpha2; fixture kai-crds.json) and misbehaves for
// one resource: 404, a list that never answers, a watch that hangs after its headers. The source
// must end its first poll (so one-shot CLI commands return), name the resource in its status,
// keep the other resources' data, and shut down promptly whatever hangs: all its resource types
// share one thread, and destroying the source never waits for that thread.

#include "models/core/domain/clock.h"
#include "models/core/domain/estate.h"
#include "models/core/sources/kubernetes/kubernetessource.h"
#include "tests/connectors/kubernetes/kaiapiserver.h"
#include "tests/support/qt/loopbackserver.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace strata;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

enum class KubeFault
{
    None,
    NotFound,  ///< list and watch answer 404 with a NotFound Status
    Stall,     ///< the list never answers
    WatchHang, ///< the list answers, the watch sends its headers and then nothing
};

/// A cluster with KAI's CRDs, empty but for KAI's two default queues and TR-4858's team-a queue
/// (KAI's default-queue with a GPU quota of 4), and per-resource faults.
class ScriptedKaiCluster
{
public:
    static json kaiQueues()
    {
        json queues = json::parse(testsupport::fixture("kubernetes-objects/kai-default-queues.json"));
        json team = queues.at(1);
        team["metadata"]["name"] = "team-a";
        team["spec"]["resources"]["gpu"]["quota"] = 4;
        queues.push_back(team);
        return queues;
    }

    explicit ScriptedKaiCluster(std::map<std::string, KubeFault> faults = {})
        : m_faults(std::move(faults))
        , m_served(kubernetes::test::kaiClusterResources())
        , m_queues(kaiQueues())
        , m_server([this](const sim::Request &request, const sim::Responder &responder) {
            handle(request, responder);
        })
    {}

    [[nodiscard]] QString baseUrl() const { return m_server.baseUrl(); }

    /// Paths of every list and watch request so far.
    [[nodiscard]] std::vector<std::string> collectionPaths()
    {
        std::lock_guard lock(m_mutex);
        return m_paths;
    }

private:
    void handle(const sim::Request &request, const sim::Responder &responder)
    {
        const std::string path = request.path.toStdString();
        const auto notFound = [&] {
            responder.send(sim::Response::json(404,
                                               QByteArray::fromStdString(json{
                                                   {"kind", "Status"},
                                                   {"apiVersion", "v1"},
                                                   {"metadata", json::object()},
                                                   {"status", "Failure"},
                                                   {"message", "the server could not find the requested resource"},
                                                   {"reason", "NotFound"},
                                                   {"details", json::object()},
                                                   {"code", 404}}.dump())));
        };
        if (path == "/version") {
            responder.send(sim::Response::json(
                200, R"({"major":"1","minor":"34","gitVersion":"v1.34.1","platform":"linux/amd64"})"));
            return;
        }
        if (const auto doc = kubernetes::test::scriptedDiscoveryDocument(path, m_served)) {
            responder.send(sim::Response::json(200, QByteArray::fromStdString(doc->dump())));
            return;
        }
        const auto collection = kubernetes::test::scriptedCollection(path, m_served);
        if (!collection) {
            notFound();
            return;
        }
        {
            std::lock_guard lock(m_mutex);
            m_paths.push_back(path);
        }
        const auto fault = m_faults.find(collection->plural);
        const KubeFault kind = fault == m_faults.end() ? KubeFault::None : fault->second;
        const bool watch = request.queryValue(QStringLiteral("watch")) == QLatin1String("1");
        if (kind == KubeFault::NotFound) {
            notFound();
        } else if (!watch && kind == KubeFault::Stall) {
            sim::Response stall;
            stall.fault = sim::Fault::Stall;
            responder.send(stall);
        } else if (!watch) {
            const json items = collection->plural == "queues" ? m_queues : json::array();
            responder.send(sim::Response::json(
                200,
                QByteArray::fromStdString(
                    json{{"kind", "List"}, {"metadata", {{"resourceVersion", "10"}}}, {"items", items}}.dump())));
        } else if (kind == KubeFault::WatchHang) {
            responder.beginStream(200, {{"Content-Type", "application/json"}});
        } else {
            // A quiet watch the server closes at once: the client watches again later.
            responder.send(sim::Response::json(200, QByteArray()));
        }
    }

    std::map<std::string, KubeFault> m_faults;
    std::vector<kubernetes::test::ScriptedResource> m_served;
    json m_queues;
    std::mutex m_mutex;
    std::vector<std::string> m_paths;
    testsupport::LoopbackServer m_server; // last: its thread calls handle()
};

class KubernetesSourceFaults : public ::testing::Test
{
protected:
    core::Estate estate;
    core::SystemClock clock;
    QThreadPool pool;
    std::unique_ptr<core::KubernetesSource> source;

    void start(const QString &url, core::KubernetesSource::Timeouts timeouts = {}, const QString &caFile = {})
    {
        core::SourceConfig config;
        config.name = QStringLiteral("kai");
        config.kind = core::SourceKind::Kubernetes;
        config.url = url;
        config.caFile = caFile;
        source = std::make_unique<core::KubernetesSource>(
            config, QStringLiteral("t0ken"), core::KubernetesSource::Deps{estate, clock, pool, nullptr, {}});
        source->setPublishInterval(20ms);
        source->setTimeouts(timeouts);
        source->start();
    }

    void TearDown() override
    {
        source.reset();
        pool.waitForDone();
    }

    bool polledOnce(int timeoutMs = 15000)
    {
        return QTest::qWaitFor(
            [&] {
                return source->hasPolledOnce();
            },
            timeoutMs);
    }

    QStringList projectNames() const
    {
        QStringList out;
        if (const auto projects = estate.projects().scope(QStringLiteral("kai"))) {
            for (const auto &p : projects->items()) {
                out << p->name;
            }
        }
        out.sort();
        return out;
    }

    /// Milliseconds it takes to destroy the source.
    qint64 destroySource()
    {
        QElapsedTimer timer;
        timer.start();
        source.reset();
        return timer.elapsed();
    }
};

/// First line of a /proc file ("comm": a thread's name).
std::string kubeProcLine(const std::filesystem::path &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

/// Ids of this process's plain threads: a std::thread keeps the process's name, while Qt's
/// threads (pools, simulators, the process manager) are named, so other tests' leftovers do not
/// count.
std::set<std::string> kubePlainThreads()
{
    const std::string processName = kubeProcLine("/proc/self/comm");
    std::set<std::string> out;
    std::error_code error;
    for (auto it = std::filesystem::directory_iterator("/proc/self/task", error);
         !error && it != std::filesystem::directory_iterator();
         it.increment(error)) {
        if (kubeProcLine(it->path() / "comm") == processName) {
            out.insert(it->path().filename().string());
        }
    }
    return out;
}

/// How many open descriptors of this process refer to `path`.
int kubeOpenDescriptors(const std::string &path)
{
    std::error_code error;
    int n = 0;
    for (auto it = std::filesystem::directory_iterator("/proc/self/fd", error);
         !error && it != std::filesystem::directory_iterator();
         it.increment(error)) {
        std::error_code linkError;
        n += std::filesystem::read_symlink(it->path(), linkError) == path ? 1 : 0;
    }
    return n;
}

TEST_F(KubernetesSourceFaults, EveryResourceTypeOfTheClusterSharesOneThread)
{
    ScriptedKaiCluster cluster;
    // Cluster threads of sources destroyed by earlier tests may still be winding down.
    ASSERT_TRUE(QTest::qWaitFor(
        [] {
            return core::KubernetesSource::clusterThreads() == 0;
        },
        10000));
    const std::set<std::string> before = kubePlainThreads();

    start(cluster.baseUrl());
    ASSERT_TRUE(polledOnce()) << source->status().lastError.toStdString();
    // Nodes, namespaces, pods, jobs, quotas, PVCs, PVs, events, queues, podgroups: each listed
    // and watched.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return cluster.collectionPaths().size() >= 20;
        },
        15000));
    EXPECT_EQ(source->status().health, core::Health::Ok) << source->status().lastError.toStdString();

    std::set<std::string> added;
    for (const std::string &tid : kubePlainThreads()) {
        if (before.count(tid) == 0) {
            added.insert(tid);
        }
    }
    EXPECT_EQ(added.size(), 1u) << "threads started for one cluster of 10 resource types";
    std::cout << "[ measure  ] threads for one cluster: " << added.size() << "\n";
    source.reset();
    EXPECT_TRUE(QTest::qWaitFor(
        [&] {
            const std::set<std::string> now = kubePlainThreads();
            return std::none_of(added.begin(), added.end(), [&](const std::string &tid) {
                return now.count(tid) > 0;
            });
        },
        10000));
}

TEST_F(KubernetesSourceFaults, CaFileThatHangs_DestroyingTheSourceDoesNotWaitForIt)
{
    // A CA file on a hung network mount, played by a FIFO that has a writer who never writes:
    // reading it blocks in the kernel, where no cancel token reaches.
    ScriptedKaiCluster cluster;
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string fifo = QDir(dir.path()).filePath(QStringLiteral("ca.pem")).toStdString();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const int holder = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
    ASSERT_GE(holder, 0);
    start(cluster.baseUrl(), {}, QString::fromStdString(fifo));
    // The cluster thread has the file open: it is blocked reading it.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return kubeOpenDescriptors(fifo) >= 2;
        },
        10000));

    std::promise<void> returned;
    std::atomic<bool> releasedFirst{false};
    std::thread releaser([&, destroyed = returned.get_future()] {
        if (destroyed.wait_for(10s) != std::future_status::ready) {
            releasedFirst = true; // the destructor is still waiting: let it go
        }
        ::close(holder);
    });
    QElapsedTimer timer;
    timer.start();
    source.reset();
    const qint64 elapsed = timer.elapsed();
    const bool waited = releasedFirst.load();
    returned.set_value();
    releaser.join();

    EXPECT_FALSE(waited) << "destroying the source waited " << elapsed << " ms for its cluster thread";
    std::cout << "[ measure  ] destroying the source took " << elapsed << " ms\n";
    // Once the file answers, the thread sees it was stopped and ends.
    EXPECT_TRUE(QTest::qWaitFor(
        [] {
            return core::KubernetesSource::clusterThreads() == 0;
        },
        10000));
}

TEST_F(KubernetesSourceFaults, KaiCrdVersions_PodGroupsAreReadAtV2alpha2AndTheSourceIsOk)
{
    ScriptedKaiCluster cluster;
    start(cluster.baseUrl());

    ASSERT_TRUE(polledOnce()) << source->status().lastError.toStdString();
    EXPECT_EQ(source->status().health, core::Health::Ok) << source->status().lastError.toStdString();
    EXPECT_EQ(projectNames(), QStringList{QStringLiteral("team-a")});
    const auto paths = cluster.collectionPaths();
    EXPECT_NE(std::find(paths.begin(), paths.end(), "/apis/scheduling.run.ai/v2alpha2/podgroups"), paths.end());
    EXPECT_NE(std::find(paths.begin(), paths.end(), "/apis/scheduling.run.ai/v2/queues"), paths.end());
    EXPECT_EQ(std::find(paths.begin(), paths.end(), "/apis/scheduling.run.ai/v2/podgroups"), paths.end());
}

TEST_F(KubernetesSourceFaults, ResourceAnswering404_FirstPollEndsDegradedNamingItAndTheRestIsLive)
{
    ScriptedKaiCluster cluster({{"podgroups", KubeFault::NotFound}});
    start(cluster.baseUrl());

    ASSERT_TRUE(polledOnce()) << source->status().lastError.toStdString();
    const core::SourceStatus status = source->status();
    EXPECT_EQ(status.health, core::Health::Degraded);
    EXPECT_TRUE(status.lastError.contains(QStringLiteral("podgroups.scheduling.run.ai: ")))
        << status.lastError.toStdString();
    EXPECT_TRUE(status.lastError.contains(QStringLiteral("404"))) << status.lastError.toStdString();
    // The queues were listed: the projects are there.
    EXPECT_EQ(projectNames(), QStringList{QStringLiteral("team-a")});
    EXPECT_LT(destroySource(), 3000);
}

TEST_F(KubernetesSourceFaults, ListThatNeverAnswers_FirstSyncDeadlineEndsTheFirstPoll)
{
    ScriptedKaiCluster cluster({{"pods", KubeFault::Stall}});
    core::KubernetesSource::Timeouts timeouts;
    timeouts.firstSync = 1s; // the request timeout (60 s) is not what ends the wait
    start(cluster.baseUrl(), timeouts);

    QElapsedTimer timer;
    timer.start();
    ASSERT_TRUE(polledOnce(10000)) << source->status().lastError.toStdString();
    EXPECT_LT(timer.elapsed(), 8000);
    const core::SourceStatus status = source->status();
    EXPECT_EQ(status.health, core::Health::Degraded);
    EXPECT_TRUE(status.lastError.contains(QStringLiteral("pods: not listed within 1 s")))
        << status.lastError.toStdString();
    EXPECT_EQ(projectNames(), QStringList{QStringLiteral("team-a")});
    // The list is still hanging: cancelling it must reach the transport.
    EXPECT_LT(destroySource(), 3000);
}

TEST_F(KubernetesSourceFaults, ListRequestTimeout_IsReportedForThatResource)
{
    ScriptedKaiCluster cluster({{"podgroups", KubeFault::Stall}});
    core::KubernetesSource::Timeouts timeouts;
    timeouts.request = 500ms;
    start(cluster.baseUrl(), timeouts);

    ASSERT_TRUE(polledOnce()) << source->status().lastError.toStdString();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return source->status().lastError.contains(QStringLiteral("podgroups.scheduling.run.ai: "));
        },
        15000))
        << source->status().lastError.toStdString();
    EXPECT_EQ(source->status().health, core::Health::Degraded);
    EXPECT_EQ(projectNames(), QStringList{QStringLiteral("team-a")});
}

TEST_F(KubernetesSourceFaults, WatchHangingAfterHeaders_IsReportedAndShutdownDoesNotWait)
{
    ScriptedKaiCluster cluster({{"podgroups", KubeFault::WatchHang}});
    core::KubernetesSource::Timeouts timeouts;
    timeouts.watchIdle = 1s;
    start(cluster.baseUrl(), timeouts);

    ASSERT_TRUE(polledOnce()) << source->status().lastError.toStdString();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const core::SourceStatus s = source->status();
            return s.health == core::Health::Degraded
                   && s.lastError.contains(QStringLiteral("podgroups.scheduling.run.ai: "));
        },
        15000))
        << source->status().lastError.toStdString();
    EXPECT_EQ(projectNames(), QStringList{QStringLiteral("team-a")});

    // With the default idle limit (120 s) the watch is still hanging when the source goes.
    const auto podgroupRequests = [&] {
        const auto paths = cluster.collectionPaths();
        return std::count_if(paths.begin(), paths.end(), [](const std::string &p) {
            return p.find("/podgroups") != std::string::npos;
        });
    };
    const auto requestsBefore = podgroupRequests();
    start(cluster.baseUrl());
    ASSERT_TRUE(polledOnce()) << source->status().lastError.toStdString();
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return podgroupRequests() >= requestsBefore + 2; // its list, then the watch that hangs
        },
        15000));
    EXPECT_LT(destroySource(), 3000);
}

TEST_F(KubernetesSourceFaults, UnreachableServer_FirstPollEndsUnreachable)
{
    start(QStringLiteral("http://127.0.0.1:1"));

    ASSERT_TRUE(polledOnce()) << source->status().lastError.toStdString();
    EXPECT_EQ(source->status().health, core::Health::Unreachable) << source->status().lastError.toStdString();
    EXPECT_LT(destroySource(), 3000);
}

} // namespace
