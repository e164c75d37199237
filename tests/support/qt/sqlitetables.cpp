#include "tests/support/qt/sqlitetables.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

namespace strata::testsupport {

::testing::AssertionResult renameSqliteTable(const QString &path, const char *from, const char *to)
{
    const QString name = QStringLiteral("strata-test-table-renamer");
    ::testing::AssertionResult result = ::testing::AssertionSuccess();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (!db.open()) {
            result = ::testing::AssertionFailure() << db.lastError().text().toStdString();
        } else if (QSqlQuery q(db);
                   !q.exec(QStringLiteral("ALTER TABLE %1 RENAME TO %2").arg(QLatin1String(from), QLatin1String(to)))) {
            result = ::testing::AssertionFailure() << q.lastError().text().toStdString();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return result;
}

} // namespace strata::testsupport
