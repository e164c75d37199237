// What a user reads when a server redirects, answers with something that is
// not HTTP, or drips its answer. Each message is one sentence about the server and what it sent.
#include "connectors/http/curltransport.h"
#include "connectors/http/httpclient.h"
#include "simulators/common/serverthread.h"
#include "tests/support/qt/loopbackserver.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <regex>
#include <thread>

using namespace std::chrono_literals;
using strata::http::BasicAuth;
using strata::http::CancelToken;
using strata::http::CurlTransport;
namespace connectors = strata::connectors;
using strata::http::HttpRequest;
using strata::http::TransportOptions;
using strata::sim::Request;
using strata::sim::Responder;
using strata::sim::Response;
using strata::testsupport::LoopbackServer;

namespace {

TransportOptions misleadingOptions()
{
    TransportOptions options;
    options.connectTimeout = 2s;
    options.totalTimeout = 20s;
    return options;
}

HttpRequest misleadingGet(const std::string &url)
{
    HttpRequest request;
    request.url = url;
    request.basic = BasicAuth{"admin", "cluster-password"};
    return request;
}

/// A TCP listener on its own thread that answers every connection with `reply` and closes it.
class RawReplyServer
{
public:
    explicit RawReplyServer(QByteArray reply)
    {
        m_thread.start([this, reply]() -> QObject * {
            auto *server = new QTcpServer();
            if (!server->listen(QHostAddress::LocalHost)) {
                delete server;
                return nullptr;
            }
            m_port = server->serverPort();
            QObject::connect(server, &QTcpServer::newConnection, server, [server, reply] {
                while (QTcpSocket *socket = server->nextPendingConnection()) {
                    // Once the request has arrived, as a server speaking another protocol would.
                    QObject::connect(socket, &QTcpSocket::readyRead, socket, [socket, reply] {
                        socket->readAll();
                        socket->write(reply);
                        socket->disconnectFromHost();
                    });
                    QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
                }
            });
            return server;
        });
    }
    [[nodiscard]] std::string url(const std::string &path) const
    {
        return "http://127.0.0.1:" + std::to_string(m_port) + path;
    }

private:
    strata::sim::ServerThread m_thread;
    quint16 m_port = 0;
};

} // namespace

// Before: followed to http://, where the 401 read "ONTAP rejected the credentials".
TEST(MisleadingErrors, RedirectFromHttpsToHttp_IsNotFollowedAndTheCredentialsStayHome)
{
    LoopbackServer plain([](const Request &, const Responder &responder) {
        responder.send(Response::json(401, R"({"error":{"message":"not authorized"}})"));
    });
    const std::string target = plain.url("/api/storage/volumes");
    LoopbackServer tls(
        [target](const Request &, const Responder &responder) {
            responder.send(Response::text(301, "moved").withHeader("Location", QByteArray::fromStdString(target)));
        },
        true);
    TransportOptions options = misleadingOptions();
    options.caFile = tls.writeCaFile();
    CurlTransport transport(options);

    const auto result = transport.send(misleadingGet(tls.url("/api/storage/volumes")), CancelToken{});

    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, connectors::Error::Kind::Http);
    EXPECT_EQ(result.error().httpStatus, 301);
    EXPECT_EQ(result.error().message,
              tls.url("") + " answered GET " + tls.url("/api/storage/volumes") + " with a redirect to " + target
                  + " (HTTP 301); Strata does not follow redirects, which could carry the credentials to another "
                    "host or over plain HTTP: point the source at the final URL");
    EXPECT_EQ(plain.connectionCount(), 0) << "nothing, and no credentials, went to the plain-HTTP host";
    EXPECT_EQ(tls.requestCount(), 1);
}

// Before: "Invalid URL \"http://...\": Received HTTP/0.9 when not allowed".
TEST(MisleadingErrors, AReplyThatIsNotHttp_SaysSoAndAsksAboutThePort)
{
    RawReplyServer ssh("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n");
    CurlTransport transport(misleadingOptions());

    const auto result = transport.send(misleadingGet(ssh.url("/api/cluster")), CancelToken{});

    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, connectors::Error::Kind::Transport);
    EXPECT_EQ(result.error().message,
              ssh.url("") + " did not answer GET " + ssh.url("/api/cluster")
                  + " with HTTP (the first bytes were not an HTTP status line: is this the right port?)");
}

// Before: waited for the whole total timeout (120 s for a poll) and the CLI said "no answer yet".
TEST(MisleadingErrors, AServerThatDripsItsAnswer_IsGivenUpOnAfterTheLowSpeedWindow)
{
    std::atomic<bool> dripStopped{false};
    LoopbackServer drip([&dripStopped](const Request &, const Responder &responder) {
        responder.beginStream(200, {{"Content-Type", "application/json"}});
        auto *timer = new QTimer();
        timer->setInterval(300ms);
        QObject::connect(timer, &QTimer::timeout, [timer, responder, &dripStopped, sent = 0]() mutable {
            if (++sent > 60 || !responder.writeChunk("[")) {
                timer->stop();
                timer->deleteLater();
                dripStopped = true;
            }
        });
        timer->start();
    });
    TransportOptions options = misleadingOptions();
    options.lowSpeedWindow = 1s;
    options.lowSpeedBytesPerSecond = 10;
    CurlTransport transport(options);

    const auto started = std::chrono::steady_clock::now();
    const auto result = transport.send(misleadingGet(drip.url("/api/storage/volumes")), CancelToken{});
    const auto took = std::chrono::steady_clock::now() - started;

    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().kind, connectors::Error::Kind::Timeout);
    const std::regex expected(drip.url("") + R"( stopped sending its answer to GET )" + drip.url("/api/storage/volumes")
                              + R"(: \d+ bytes in \d+\.\d s, under 10 byte/s for 1 s)");
    EXPECT_TRUE(std::regex_match(result.error().message, expected)) << result.error().message;
    EXPECT_LT(took, 5s);
    // The server notices the client gave up (and its timer goes) before the server is torn down.
    for (int i = 0; i < 600 && !dripStopped; ++i) {
        std::this_thread::sleep_for(50ms); // poll interval of this condition wait (up to 30 s under load)
    }
    EXPECT_TRUE(dripStopped);
}

TEST(MisleadingErrors, ASlowFirstByteIsNotAStall)
{
    LoopbackServer slow([](const Request &, const Responder &responder) {
        Response response = Response::json(200, "{}");
        response.delay = 1500ms;
        responder.send(response);
    });
    TransportOptions options = misleadingOptions();
    options.lowSpeedWindow = 1s;
    options.lowSpeedBytesPerSecond = 10;
    CurlTransport transport(options);

    const auto result = transport.send(misleadingGet(slow.url("/api/cluster")), CancelToken{});

    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->status, 200);
}

// A watch idles legitimately; only its own idle timeout applies to it.
TEST(MisleadingErrors, AStreamMayIdleLongerThanTheLowSpeedWindow)
{
    LoopbackServer watch([](const Request &, const Responder &responder) {
        responder.beginStream(200, {{"Content-Type", "application/json"}});
        responder.writeChunk("{\"type\":\"ADDED\"}\n");
        QTimer::singleShot(2500ms, [responder] {
            responder.writeChunk("{\"type\":\"MODIFIED\"}\n");
            responder.endStream();
        });
    });
    TransportOptions options = misleadingOptions();
    options.lowSpeedWindow = 1s;
    options.lowSpeedBytesPerSecond = 10;
    options.streamIdleTimeout = 10s;
    CurlTransport transport(options);
    std::string events;

    const auto result = transport.stream(
        misleadingGet(watch.url("/api/v1/pods?watch=1")),
        [&events](std::string_view chunk) {
            events.append(chunk);
            return true;
        },
        CancelToken{});

    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(events, "{\"type\":\"ADDED\"}\n{\"type\":\"MODIFIED\"}\n");
}

// What connectors put after "<system> sent ": nlohmann's function names never reach the user.
TEST(MisleadingErrors, JsonMismatchesAreSaidInPlainWords)
{
    const auto mismatch = [](const std::function<void()> &parse, std::string_view subject) {
        try {
            parse();
        } catch (const std::exception &e) {
            return strata::http::describeJsonMismatch(e, subject);
        }
        return std::string("no exception");
    };
    const nlohmann::json array = nlohmann::json::array({1, 2});
    const nlohmann::json object = {{"name", 7}};
    EXPECT_EQ(mismatch(
                  [&] {
                      (void)array.at("uuid");
                  },
                  "the cluster"),
              "a JSON array where an object belongs (the cluster)");
    EXPECT_EQ(mismatch(
                  [&] {
                      (void)array.value("uuid", std::string());
                  },
                  {}),
              "a JSON array where an object belongs");
    EXPECT_EQ(mismatch(
                  [&] {
                      (void)object.at("name").get<std::string>();
                  },
                  "record 3"),
              "a JSON number where a string belongs (record 3)");
    EXPECT_EQ(mismatch(
                  [&] {
                      (void)object.at("uuid");
                  },
                  "record 3"),
              "no \"uuid\" field (record 3)");
    EXPECT_EQ(mismatch(
                  [&] {
                      (void)object.at("name").get<std::vector<int>>();
                  },
                  {}),
              "a JSON number where an array belongs");
}
