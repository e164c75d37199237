#pragma once

#include <QLocale>
#include <QString>

#include <optional>

namespace strata::core {

/// Milli-GPUs: 1000 = one whole GPU (fractional sharing, e.g. 500 = half a GPU).
using MilliGpu = qint64;

/// The one place Strata turns figures into text, shared by the desktop, `strata-server` and the
/// CLI (the web console pins its JavaScript formatters to tests/fixtures/units/format-cases.json,
/// the same table the C++ test reads).
///
/// Units: capacity and throughput are binary (IEC: KiB = 1024 B, MiB/s = 1024² B/s), as ONTAP
/// System Manager and Azure show them. Each figure picks its own unit: the largest in which it is
/// at least 1 (B, KiB, MiB, GiB, TiB, PiB), so "212 MiB" never reads "0.00 TiB". Digits: whole
/// bytes below 1 KiB; otherwise one decimal below 100 in the chosen unit ("2.0 TiB",
/// "15.6 MiB/s") and none from 100 on ("250 GiB"); a figure that would round to 1,024 moves up a
/// unit ("1.0 GiB"). Decimal units appear only where a vendor's own figure is quoted (ONTAP's QoS
/// max throughput is set in base-ten MB/s: formatVendorMegabytesPerSecond).
/// Numbers follow `locale` (decimal point, group separator); unknown figures are kUnknownText.
namespace units {
/// Bytes in one KiB, MiB, GiB, TiB.
inline constexpr double kKiB = 1024.0;
inline constexpr double kMiB = 1024.0 * 1024.0;
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kTiB = 1024.0 * 1024.0 * 1024.0 * 1024.0;
} // namespace units

/// What every table and chart shows for a figure the system did not report (never "0").
inline constexpr char16_t kUnknownText[] = u"\u2014";

/// Capacity: "512 B", "1.5 KiB", "212 MiB", "250 GiB", "2.0 TiB"; negative values keep their
/// sign ("-1.5 GiB").
QString formatBytes(qint64 bytes, const QLocale &locale = QLocale());
/// As formatBytes, kUnknownText when unknown.
QString formatBytes(const std::optional<qint64> &bytes);
/// A change in capacity: "+1.2 GiB", "−300 MiB" (U+2212), "0 B".
QString formatBytesDelta(qint64 bytes, const QLocale &locale = QLocale());
/// Throughput in bytes per second: "0 B/s", "15.6 MiB/s", "5.6 GiB/s"; kUnknownText when < 0
/// (unknown) or not finite.
QString formatRate(double bytesPerSecond, const QLocale &locale = QLocale());
/// formatRate() of a figure held in MiB/s (Azure's throughputMibps, service-level caps).
QString formatRateMibps(double mibps, const QLocale &locale = QLocale());
/// A vendor's own base-ten figure, quoted as the vendor states it: "6,000 MB/s" (ONTAP QoS).
QString formatVendorMegabytesPerSecond(qint64 megabytesPerSecond, const QLocale &locale = QLocale());
/// "42.0 %" (one decimal), kUnknownText when unknown.
QString formatPercent(const std::optional<double> &percent, const QLocale &locale = QLocale());
/// Whole counts with the locale's group separator: "12,480".
QString formatCount(qint64 count, const QLocale &locale = QLocale());
/// "2", "0.5", "1.25", "-3" GPUs (hundredths, trailing zeros dropped; no unit, no grouping).
QString formatGpus(MilliGpu milli);
/// A span of seconds in its two largest units, as kubectl's ages: "45s", "3m 12s", "2h 05m",
/// "3d 04h"; kUnknownText when negative (unknown).
QString formatDuration(qint64 seconds);

} // namespace strata::core
