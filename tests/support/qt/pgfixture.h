#pragma once

#include <QString>

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace strata::testsupport {

/// The admin URL (postgresql://strata:…@127.0.0.1:<port>/postgres) of the shared throwaway
/// PostgreSQL cluster, started on first use with tests/support/pg-fixture.sh in STRATA_PG_DIR
/// (default <build dir>/pg) or reused when one answers there (ctest's `store_pg_up` fixture
/// starts it once for every test process; `store_pg_down` stops it). A process that started the
/// cluster itself stops it at exit. When it cannot start (no PostgreSQL server installed, initdb
/// failing) this records a test failure with the script's output and returns an empty string:
/// PostgreSQL tests fail, never skip.
QString postgresUrl();

/// A fresh, empty database "strata_t_<pid>_<n>" on the shared cluster for one test, dropped
/// (WITH (FORCE): connections left open included) by the destructor. url() is empty, with a
/// test failure recorded, when the cluster or the CREATE DATABASE failed.
class ScratchPostgresDatabase
{
public:
    ScratchPostgresDatabase();
    ~ScratchPostgresDatabase();
    ScratchPostgresDatabase(const ScratchPostgresDatabase &) = delete;
    ScratchPostgresDatabase &operator=(const ScratchPostgresDatabase &) = delete;

    /// postgresql://strata:…@127.0.0.1:<port>/<name>, or empty.
    [[nodiscard]] QString url() const { return m_url; }
    [[nodiscard]] QString name() const { return m_name; }

private:
    QString m_name;
    QString m_url;
};

/// The two dialects of core::SqlHistoryStore, a test parameter.
enum class StoreBackend
{
    Sqlite,
    Postgres
};

/// "Sqlite" / "Postgres", for INSTANTIATE_TEST_SUITE_P's name generator.
std::string storeBackendName(const testing::TestParamInfo<StoreBackend> &info);

/// Where a fresh, empty store of `backend` lives for one test: ":memory:" for SQLite, a scratch
/// database's URL for PostgreSQL (empty, with a failure recorded, when that failed).
class ScratchStore
{
public:
    explicit ScratchStore(StoreBackend backend);

    [[nodiscard]] QString location() const;

private:
    StoreBackend m_backend;
    std::unique_ptr<ScratchPostgresDatabase> m_database;
};

} // namespace strata::testsupport
