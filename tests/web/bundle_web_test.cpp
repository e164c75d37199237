// GET /api/v1/bundle: operators and admins download a support bundle of the estate the server
// polls; viewers and anonymous callers do not.

#include "webfixture.h"

#include "models/core/runtime/bundle.h"

namespace strata::testsupport {
namespace {

using WebBundleTest = WebFixture;

TEST_F(WebBundleTest, AnOperatorDownloadsABundleThatOpensOfflineAndAViewerCannot)
{
    startServer();
    EXPECT_EQ(get(QStringLiteral("/api/v1/bundle")).status, 401);
    const Login viewer = login(QStringLiteral("viewer"));
    EXPECT_EQ(get(QStringLiteral("/api/v1/bundle"), viewer).status, 403);

    const Login op = login(QStringLiteral("operator"));
    const Reply r = get(QStringLiteral("/api/v1/bundle"), op);
    ASSERT_EQ(r.status, 200) << r.body.left(200).toStdString();
    EXPECT_EQ(r.header("Content-Type"), QByteArray("application/gzip"));
    EXPECT_TRUE(r.header("Content-Disposition").startsWith("attachment; filename=\"strata-"))
        << r.header("Content-Disposition").toStdString();
    QString error;
    const core::Result<core::Bundle> bundle = core::decodeBundle(r.body);
    ASSERT_TRUE(bundle) << bundle.error().message.toStdString();
    EXPECT_EQ(bundle->meta.user, QStringLiteral("operator"));
    ASSERT_EQ(bundle->sources.size(), 1);
    EXPECT_EQ(bundle->sources[0].name, QStringLiteral("ontap-ai"));
    const QJsonArray volumes = get(QStringLiteral("/api/v1/volumes"), op).json().array();
    EXPECT_EQ(bundle->estate.volumes.value(QStringLiteral("ontap-ai")).size(), volumes.size());
}

} // namespace
} // namespace strata::testsupport
