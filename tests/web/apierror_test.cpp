// One error map for the API: each refusal reason has one status and one code, every error reply
// carries both, and every response names the API version.

#include "web/apierror.h"
#include "webfixture.h"

#include <QSet>

namespace strata::testsupport {
namespace {

using ApiErrorServerTest = WebFixture;

TEST(ApiErrorMapTest, EveryReasonHasItsOwnStatusAndCode)
{
    using E = web::ApiError;
    const QList<E> all{E::BadRequest,
                       E::LoginRequired,
                       E::Forbidden,
                       E::NotFound,
                       E::Conflict,
                       E::TooManyRequests,
                       E::Internal,
                       E::Unavailable};
    QSet<int> statuses;
    QSet<QString> codes;
    for (const E e : all) {
        statuses.insert(web::apiErrorStatus(e));
        codes.insert(web::apiErrorCode(e));
        EXPECT_EQ(web::apiErrorForStatus(web::apiErrorStatus(e)), e);
    }
    EXPECT_EQ(statuses.size(), all.size());
    EXPECT_EQ(codes.size(), all.size());
    EXPECT_EQ(web::apiErrorStatus(E::NotFound), 404);
    EXPECT_EQ(web::apiErrorCode(E::TooManyRequests), QStringLiteral("too_many_requests"));
    EXPECT_FALSE(web::apiErrorForStatus(418).has_value());
    const QJsonObject value = web::apiErrorValue(E::Conflict, QStringLiteral("busy"));
    EXPECT_EQ(value.value(QLatin1String("status")).toInt(), 409);
    EXPECT_EQ(value.value(QLatin1String("code")).toString(), QStringLiteral("conflict"));
    EXPECT_EQ(value.value(QLatin1String("error")).toString(), QStringLiteral("busy"));
}

TEST_F(ApiErrorServerTest, ErrorRepliesCarryStatusAndCodeAndEveryResponseTheApiVersion)
{
    startServer();
    const Reply version = get(QStringLiteral("/api/v1/version")); // no login needed
    ASSERT_EQ(version.status, 200) << version.body.toStdString();
    EXPECT_EQ(version.json().object().value(QLatin1String("api_version")).toString(), QLatin1String(web::kApiVersion));
    EXPECT_EQ(version.header("X-Strata-Api-Version"), QByteArray(web::kApiVersion));

    const Reply anonymous = get(QStringLiteral("/api/v1/volumes"));
    EXPECT_EQ(anonymous.status, 401);
    EXPECT_EQ(anonymous.json().object().value(QLatin1String("code")).toString(), QStringLiteral("login_required"));
    EXPECT_EQ(anonymous.header("X-Strata-Api-Version"), QByteArray(web::kApiVersion));

    const Login viewer = login(QStringLiteral("viewer"));
    const Reply missing = get(QStringLiteral("/api/v1/no-such-thing"), viewer);
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(missing.json().object().value(QLatin1String("code")).toString(), QStringLiteral("not_found"));
    EXPECT_FALSE(missing.json().object().value(QLatin1String("error")).toString().isEmpty());

    // A feature route fails through the same map.
    server->addGetRoute(
        QStringLiteral("feature/thing"), web::Role::Viewer, [](const QHttpServerRequest &, const web::Session &) {
            return QJsonValue(web::apiErrorValue(web::ApiError::Conflict, QStringLiteral("not now")));
        });
    const Reply conflict = get(QStringLiteral("/api/v1/feature/thing"), viewer);
    EXPECT_EQ(conflict.status, 409);
    EXPECT_EQ(conflict.json().object(),
              (QJsonObject{{QStringLiteral("error"), QStringLiteral("not now")},
                           {QStringLiteral("code"), QStringLiteral("conflict")}}));
}

} // namespace
} // namespace strata::testsupport
