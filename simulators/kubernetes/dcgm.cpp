#include "simulators/kubernetes/dcgm.h"

#include "simulators/common/httpserver.h"

#include <QRegularExpression>
#include <QUrlQuery>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>

namespace strata::sim::kube {

namespace {

struct MetricDef
{
    const char *name;
    const char *help;
    double DcgmGpuSample::*field;
};

// Order, help texts and types as in dcgm-exporter's default-counters.csv.
constexpr MetricDef kMetrics[] = {
    {"DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", &DcgmGpuSample::tempC},
    {"DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", &DcgmGpuSample::powerW},
    {"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", &DcgmGpuSample::utilPct},
    {"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", &DcgmGpuSample::fbFreeMiB},
    {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", &DcgmGpuSample::fbUsedMiB},
};

// Prometheus rejects range queries beyond this many points per series.
constexpr qint64 kMaxPoints = 11000;

using Labels = std::vector<std::pair<QString, QString>>; // sorted by name

// Go's strconv.FormatFloat(v, 'f', -1, 64), which Prometheus uses for values and timestamps.
QByteArray formatFloat(double value)
{
    if (std::isnan(value)) {
        return QByteArrayLiteral("NaN");
    }
    if (std::isinf(value)) {
        return value > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    }
    char buffer[512];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
    return QByteArray(buffer, static_cast<qsizetype>(result.ptr - buffer));
}

// Prometheus' marshalTimestamp: whole seconds, then exactly three fraction digits when non-zero.
QByteArray formatTime(qint64 ms)
{
    QByteArray out;
    if (ms < 0) {
        out.append('-');
        ms = -ms;
    }
    out.append(QByteArray::number(ms / 1000));
    if (const qint64 fraction = ms % 1000; fraction != 0) {
        out.append('.').append(QByteArray::number(fraction).rightJustified(3, '0'));
    }
    return out;
}

QByteArray jsonString(const QString &text)
{
    // QString's UTF-8 is always valid, so dump() cannot throw.
    return QByteArray::fromStdString(nlohmann::json(text.toStdString()).dump());
}

QByteArray exposition(const QString &text)
{
    QByteArray out = text.toUtf8();
    out.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
    return out;
}

Labels labelsOf(const MetricDef &metric, const DcgmGpuSample &sample)
{
    Labels labels{
        {QStringLiteral("Hostname"), sample.node},
        {QStringLiteral("UUID"), sample.uuid},
        {QStringLiteral("__name__"), QString::fromLatin1(metric.name)},
        {QStringLiteral("device"), QStringLiteral("nvidia%1").arg(sample.gpu)},
        {QStringLiteral("gpu"), QString::number(sample.gpu)},
        {QStringLiteral("modelName"), sample.model},
    };
    // Prometheus drops empty labels, so an idle GPU has none of these.
    if (!sample.pod.isEmpty()) {
        labels.emplace_back(QStringLiteral("pod"), sample.pod);
    }
    if (!sample.namespace_.isEmpty()) {
        labels.emplace_back(QStringLiteral("namespace"), sample.namespace_);
    }
    if (!sample.container.isEmpty()) {
        labels.emplace_back(QStringLiteral("container"), sample.container);
    }
    std::sort(labels.begin(), labels.end());
    return labels;
}

QString labelValue(const Labels &labels, const QString &name)
{
    for (const auto &[key, value] : labels) {
        if (key == name) {
            return value;
        }
    }
    return {};
}

QByteArray metricJson(const Labels &labels)
{
    QByteArray out = "{";
    bool first = true;
    for (const auto &[key, value] : labels) {
        if (!first) {
            out.append(',');
        }
        first = false;
        out.append(jsonString(key)).append(':').append(jsonString(value));
    }
    return out.append('}');
}

// ---- the selector subset of PromQL -----------------------------------------------------------

struct Matcher
{
    enum class Op
    {
        Equal,
        NotEqual,
        Regex,
        NotRegex
    };
    QString label;
    Op op = Op::Equal;
    QString value;
    QRegularExpression regex;

    [[nodiscard]] bool matches(const QString &actual) const
    {
        switch (op) {
        case Op::Equal:
            return actual == value;
        case Op::NotEqual:
            return actual != value;
        case Op::Regex:
            return regex.match(actual).hasMatch();
        case Op::NotRegex:
            return !regex.match(actual).hasMatch();
        }
        return false;
    }
};

struct Selector
{
    std::vector<Matcher> matchers; // __name__ included when a metric name was given

    [[nodiscard]] bool matches(const Labels &labels) const
    {
        return std::all_of(matchers.begin(), matchers.end(), [&](const Matcher &m) {
            return m.matches(labelValue(labels, m.label));
        });
    }
};

class SelectorParser
{
public:
    explicit SelectorParser(QString text)
        : m_text(std::move(text))
    {}

    std::optional<Selector> parse(QString &error)
    {
        Selector selector;
        skipSpace();
        const QString name = identifier(/*metric=*/true);
        if (!name.isEmpty()) {
            selector.matchers.push_back({QStringLiteral("__name__"), Matcher::Op::Equal, name, {}});
        }
        skipSpace();
        if (peek() == QLatin1Char('{')) {
            ++m_pos;
            if (!matchers(selector, error)) {
                return std::nullopt;
            }
        }
        skipSpace();
        if (m_pos < m_text.size()) {
            error = unsupported();
            return std::nullopt;
        }
        if (selector.matchers.empty()) {
            error = position() + QStringLiteral("parse error: unexpected end of input");
            return std::nullopt;
        }
        const bool anyNonEmpty = std::any_of(selector.matchers.begin(), selector.matchers.end(), [](const Matcher &m) {
            return !m.matches(QString());
        });
        if (!anyNonEmpty) {
            error =
                position() + QStringLiteral("parse error: vector selector must contain at least one non-empty matcher");
            return std::nullopt;
        }
        return selector;
    }

private:
    bool matchers(Selector &selector, QString &error)
    {
        for (;;) {
            skipSpace();
            if (peek() == QLatin1Char('}')) {
                ++m_pos;
                return true;
            }
            Matcher matcher;
            matcher.label = identifier(/*metric=*/false);
            if (matcher.label.isEmpty()) {
                error =
                    position() + QStringLiteral("parse error: unexpected character inside braces: '%1'").arg(peek());
                return false;
            }
            skipSpace();
            if (m_text.mid(m_pos, 2) == QLatin1String("=~")) {
                matcher.op = Matcher::Op::Regex;
                m_pos += 2;
            } else if (m_text.mid(m_pos, 2) == QLatin1String("!~")) {
                matcher.op = Matcher::Op::NotRegex;
                m_pos += 2;
            } else if (m_text.mid(m_pos, 2) == QLatin1String("!=")) {
                matcher.op = Matcher::Op::NotEqual;
                m_pos += 2;
            } else if (peek() == QLatin1Char('=')) {
                matcher.op = Matcher::Op::Equal;
                ++m_pos;
            } else {
                error = position() + QStringLiteral("parse error: unexpected character after label name");
                return false;
            }
            skipSpace();
            auto value = stringLiteral(error);
            if (!value) {
                return false;
            }
            matcher.value = *value;
            if (matcher.op == Matcher::Op::Regex || matcher.op == Matcher::Op::NotRegex) {
                // Prometheus anchors label regexes at both ends.
                matcher.regex = QRegularExpression(QStringLiteral("^(?:%1)$").arg(*value));
                if (!matcher.regex.isValid()) {
                    error = QStringLiteral("parse error: error parsing regexp: %1").arg(matcher.regex.errorString());
                    return false;
                }
            }
            selector.matchers.push_back(std::move(matcher));
            skipSpace();
            if (peek() == QLatin1Char(',')) {
                ++m_pos;
            } else if (peek() != QLatin1Char('}')) {
                error =
                    position() + QStringLiteral("parse error: unexpected character inside braces: '%1'").arg(peek());
                return false;
            }
        }
    }

    std::optional<QString> stringLiteral(QString &error)
    {
        const QChar quote = peek();
        if (quote != QLatin1Char('"') && quote != QLatin1Char('\'') && quote != QLatin1Char('`')) {
            error = position() + QStringLiteral("parse error: unexpected character in label matcher, expected string");
            return std::nullopt;
        }
        ++m_pos;
        QString value;
        while (m_pos < m_text.size()) {
            const QChar c = m_text.at(m_pos++);
            if (c == quote) {
                return value;
            }
            if (c == QLatin1Char('\\') && quote != QLatin1Char('`') && m_pos < m_text.size()) {
                const QChar escaped = m_text.at(m_pos++);
                if (escaped == QLatin1Char('n')) {
                    value.append(QLatin1Char('\n'));
                } else if (escaped == QLatin1Char('t')) {
                    value.append(QLatin1Char('\t'));
                } else {
                    value.append(escaped);
                }
                continue;
            }
            value.append(c);
        }
        error = position() + QStringLiteral("parse error: unterminated quoted string");
        return std::nullopt;
    }

    QString identifier(bool metric)
    {
        const qsizetype start = m_pos;
        while (m_pos < m_text.size()) {
            const QChar c = m_text.at(m_pos);
            const bool ok = (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
                            || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || c == QLatin1Char('_')
                            || (metric && c == QLatin1Char(':'))
                            || (m_pos > start && c >= QLatin1Char('0') && c <= QLatin1Char('9'));
            if (!ok) {
                break;
            }
            ++m_pos;
        }
        return m_text.mid(start, m_pos - start);
    }

    void skipSpace()
    {
        while (m_pos < m_text.size() && m_text.at(m_pos).isSpace()) {
            ++m_pos;
        }
    }

    [[nodiscard]] QChar peek() const { return m_pos < m_text.size() ? m_text.at(m_pos) : QChar(); }
    [[nodiscard]] QString position() const { return QStringLiteral("1:%1: ").arg(m_pos + 1); }
    [[nodiscard]] QString unsupported() const
    {
        return QStringLiteral("1:%1: this simulated Prometheus evaluates only vector selectors such as "
                              "DCGM_FI_DEV_GPU_UTIL{namespace=\"runai-team-a\"}, not functions, operators or "
                              "aggregations")
            .arg(m_pos + 1);
    }

    QString m_text;
    qsizetype m_pos = 0;
};

// ---- request parameters -----------------------------------------------------------------------

class Params
{
public:
    explicit Params(const Request &request)
        : m_url(request.query)
    {
        // Prometheus reads POST bodies as forms (Go's ParseForm), where '+' is a space.
        const QByteArray type = request.header("content-type");
        if (request.method == "POST" && type.startsWith("application/x-www-form-urlencoded")) {
            QByteArray body = request.body;
            body.replace('+', ' ');
            m_form = QUrlQuery(QString::fromUtf8(body));
        }
    }

    [[nodiscard]] std::optional<QString> value(const QString &key) const
    {
        if (m_form.hasQueryItem(key)) {
            return m_form.queryItemValue(key, QUrl::FullyDecoded);
        }
        if (m_url.hasQueryItem(key)) {
            return m_url.queryItemValue(key, QUrl::FullyDecoded);
        }
        return std::nullopt;
    }

private:
    QUrlQuery m_url;
    QUrlQuery m_form;
};

// Unix seconds ("1700000000.5") or RFC 3339, as Prometheus' parseTime accepts.
std::optional<qint64> parseTimeMs(const QString &text)
{
    bool ok = false;
    const double seconds = text.toDouble(&ok);
    if (ok && std::isfinite(seconds)) {
        return static_cast<qint64>(std::llround(seconds * 1000.0));
    }
    QDateTime parsed = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (parsed.isValid()) {
        return parsed.toMSecsSinceEpoch();
    }
    return std::nullopt;
}

// Seconds ("15", "0.5") or a Prometheus duration ("1h30m", "30s", "500ms").
std::optional<qint64> parseDurationMs(const QString &text)
{
    bool ok = false;
    const double seconds = text.toDouble(&ok);
    if (ok && std::isfinite(seconds)) {
        return static_cast<qint64>(std::llround(seconds * 1000.0));
    }
    static const QRegularExpression part(QStringLiteral("(\\d+)(ms|s|m|h|d|w|y)"));
    qint64 total = 0;
    qsizetype pos = 0;
    while (pos < text.size()) {
        const auto match =
            part.match(text, pos, QRegularExpression::NormalMatch, QRegularExpression::AnchorAtOffsetMatchOption);
        if (!match.hasMatch()) {
            return std::nullopt;
        }
        const qint64 n = match.captured(1).toLongLong();
        const QString unit = match.captured(2);
        const qint64 factor = unit == QLatin1String("ms")  ? 1
                              : unit == QLatin1String("s") ? 1000
                              : unit == QLatin1String("m") ? 60'000
                              : unit == QLatin1String("h") ? 3'600'000
                              : unit == QLatin1String("d") ? 86'400'000
                              : unit == QLatin1String("w") ? 7 * 86'400'000LL
                                                           : 365 * 86'400'000LL;
        total += n * factor;
        pos = match.capturedEnd();
    }
    return text.isEmpty() ? std::nullopt : std::optional<qint64>(total);
}

Response apiError(const QString &message, int status = 400, const char *type = "bad_data")
{
    QByteArray body = R"({"status":"error","errorType":")";
    body.append(type).append(R"(","error":)").append(jsonString(message)).append('}');
    return Response::json(status, body);
}

Response apiSuccess(const QByteArray &data)
{
    return Response::json(200, QByteArray(R"({"status":"success","data":)") + data + '}');
}

} // namespace

DcgmExporter::DcgmExporter()
    : DcgmExporter(Options{})
{}

DcgmExporter::DcgmExporter(Options options)
    : m_options(options)
{
    m_options.maxScrapes = std::max<std::size_t>(m_options.maxScrapes, 1);
}

void DcgmExporter::record(const QDateTime &at, QList<DcgmGpuSample> gpus)
{
    const qint64 ms = at.toMSecsSinceEpoch();
    if (!m_scrapes.empty()) {
        const qint64 newest = m_scrapes.back().timeMs;
        if (ms < newest) {
            return;
        }
        // A tick within the scrape interval of the scrape's first tick overwrites it: the history
        // stays at the scrape resolution while /metrics shows the freshest values.
        if (ms - m_scrapes.back().openedMs < m_options.scrapeInterval.count()) {
            m_scrapes.back().timeMs = ms;
            m_scrapes.back().gpus = std::move(gpus);
            return;
        }
    }
    m_scrapes.push_back(Scrape{ms, ms, std::move(gpus)});
    while (m_scrapes.size() > m_options.maxScrapes
           || (m_scrapes.size() > 1 && m_scrapes.front().timeMs < ms - m_options.retention.count())) {
        m_scrapes.pop_front();
    }
}

QDateTime DcgmExporter::latestTime() const
{
    return m_scrapes.empty() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(m_scrapes.back().timeMs, Qt::UTC);
}

QByteArray DcgmExporter::metricsText() const
{
    QByteArray out;
    for (const MetricDef &metric : kMetrics) {
        out.append("# HELP ").append(metric.name).append(' ').append(metric.help).append('\n');
        out.append("# TYPE ").append(metric.name).append(" gauge\n");
        if (m_scrapes.empty()) {
            continue;
        }
        for (const DcgmGpuSample &gpu : m_scrapes.back().gpus) {
            // dcgm-exporter's label order.
            out.append(metric.name)
                .append("{gpu=\"")
                .append(QByteArray::number(gpu.gpu))
                .append("\",UUID=\"")
                .append(exposition(gpu.uuid))
                .append("\",device=\"nvidia")
                .append(QByteArray::number(gpu.gpu))
                .append("\",modelName=\"")
                .append(exposition(gpu.model))
                .append("\",Hostname=\"")
                .append(exposition(gpu.node))
                .append('"');
            if (!gpu.pod.isEmpty() || !gpu.namespace_.isEmpty() || !gpu.container.isEmpty()) {
                out.append(",container=\"")
                    .append(exposition(gpu.container))
                    .append("\",namespace=\"")
                    .append(exposition(gpu.namespace_))
                    .append("\",pod=\"")
                    .append(exposition(gpu.pod))
                    .append('"');
            }
            out.append("} ").append(formatFloat(gpu.*metric.field)).append('\n');
        }
    }
    return out;
}

bool DcgmExporter::handle(const Request &request, const Responder &responder) const
{
    QString path = request.path;
    if (!m_options.pathPrefix.isEmpty()) {
        if (!path.startsWith(m_options.pathPrefix + QLatin1Char('/'))) {
            return false;
        }
        path = path.mid(m_options.pathPrefix.size());
    }
    const bool getOrPost = request.method == "GET" || request.method == "POST";

    if (path == QLatin1String("/metrics")) {
        if (request.method != "GET" && request.method != "HEAD") {
            responder.send(Response::text(405, "method not allowed\n"));
            return true;
        }
        Response response;
        response.status = 200;
        response.body = metricsText();
        response.headers.append(
            {QByteArrayLiteral("Content-Type"), QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8")});
        responder.send(std::move(response));
        return true;
    }
    if (path == QLatin1String("/api/v1/status/buildinfo")) {
        responder.send(apiSuccess(R"({"version":"2.42.0","revision":"strata-sim","branch":"HEAD",)"
                                  R"("buildUser":"strata","buildDate":"20230201-00:00:00","goVersion":"go1.19.5"})"));
        return true;
    }
    const bool instant = path == QLatin1String("/api/v1/query");
    const bool range = path == QLatin1String("/api/v1/query_range");
    if (!instant && !range) {
        // Not even a 404 for other /api/v1/ paths: they belong to the Kubernetes API on a shared port.
        return false;
    }
    if (!getOrPost) {
        responder.send(Response::text(405, "Method Not Allowed\n"));
        return true;
    }

    const Params params(request);
    const QString queryText = params.value(QStringLiteral("query")).value_or(QString());
    QString parseError;
    const auto selector = SelectorParser(queryText).parse(parseError);
    if (!selector) {
        responder.send(apiError(QStringLiteral("invalid parameter \"query\": ") + parseError));
        return true;
    }

    // The newest scrape in [t - lookback, t], or nullptr (Prometheus 2.x includes the left edge; 3.x does not).
    const auto scrapeAt = [this](qint64 t) -> const Scrape * {
        auto it = std::upper_bound(m_scrapes.begin(), m_scrapes.end(), t, [](qint64 value, const Scrape &s) {
            return value < s.timeMs;
        });
        if (it == m_scrapes.begin()) {
            return nullptr;
        }
        --it;
        return it->timeMs >= t - m_options.lookback.count() ? &*it : nullptr;
    };
    // Every series the selector matches in `scrape`, sorted by labels.
    const auto evaluate = [&](const Scrape &scrape) {
        std::vector<std::pair<Labels, double>> out;
        for (const MetricDef &metric : kMetrics) {
            for (const DcgmGpuSample &gpu : scrape.gpus) {
                Labels labels = labelsOf(metric, gpu);
                if (selector->matches(labels)) {
                    out.emplace_back(std::move(labels), gpu.*metric.field);
                }
            }
        }
        std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
            return a.first < b.first;
        });
        return out;
    };

    if (instant) {
        qint64 t = m_scrapes.empty() ? QDateTime::currentMSecsSinceEpoch() : m_scrapes.back().timeMs;
        if (const auto timeText = params.value(QStringLiteral("time")); timeText && !timeText->isEmpty()) {
            const auto parsed = parseTimeMs(*timeText);
            if (!parsed) {
                responder.send(
                    apiError(QStringLiteral("invalid parameter \"time\": cannot parse \"%1\" to a valid timestamp")
                                 .arg(*timeText)));
                return true;
            }
            t = *parsed;
        }
        QByteArray result = "[";
        if (const Scrape *scrape = scrapeAt(t)) {
            bool first = true;
            for (const auto &[labels, value] : evaluate(*scrape)) {
                if (!first) {
                    result.append(',');
                }
                first = false;
                result.append(R"({"metric":)")
                    .append(metricJson(labels))
                    .append(R"(,"value":[)")
                    .append(formatTime(t))
                    .append(",\"")
                    .append(formatFloat(value))
                    .append("\"]}");
            }
        }
        result.append(']');
        responder.send(apiSuccess(R"({"resultType":"vector","result":)" + result + '}'));
        return true;
    }

    std::optional<qint64> start;
    std::optional<qint64> end;
    std::optional<qint64> step;
    for (auto [name, target, isDuration] :
         {std::tuple{"start", &start, false}, std::tuple{"end", &end, false}, std::tuple{"step", &step, true}}) {
        const QString key = QString::fromLatin1(name);
        const QString text = params.value(key).value_or(QString());
        *target = isDuration ? parseDurationMs(text) : parseTimeMs(text);
        if (!*target) {
            responder.send(apiError(
                isDuration
                    ? QStringLiteral("invalid parameter \"step\": cannot parse \"%1\" to a valid duration").arg(text)
                    : QStringLiteral("invalid parameter \"%1\": cannot parse \"%2\" to a valid timestamp")
                          .arg(key, text)));
            return true;
        }
    }
    if (*end < *start) {
        responder.send(apiError(QStringLiteral("end timestamp must not be before start time")));
        return true;
    }
    if (*step <= 0) {
        responder.send(apiError(
            QStringLiteral("zero or negative query resolution step widths are not accepted. Try a positive integer")));
        return true;
    }
    if ((*end - *start) / *step > kMaxPoints) {
        responder.send(apiError(QStringLiteral("exceeded maximum resolution of 11,000 points per timeseries. Try "
                                               "decreasing the query resolution (?step=XX)")));
        return true;
    }

    std::map<Labels, QByteArray> series; // labels -> "[t,\"v\"],..."
    const Scrape *evaluated = nullptr;
    std::vector<std::pair<Labels, double>> matched;
    for (qint64 t = *start; t <= *end; t += *step) {
        const Scrape *scrape = scrapeAt(t);
        if (!scrape) {
            continue;
        }
        // Steps finer than the scrape interval see the same scrape repeatedly.
        if (scrape != evaluated) {
            matched = evaluate(*scrape);
            evaluated = scrape;
        }
        for (const auto &[labels, value] : matched) {
            QByteArray &points = series[labels];
            if (!points.isEmpty()) {
                points.append(',');
            }
            points.append('[').append(formatTime(t)).append(",\"").append(formatFloat(value)).append("\"]");
        }
    }
    QByteArray result = "[";
    bool first = true;
    for (const auto &[labels, points] : series) {
        if (!first) {
            result.append(',');
        }
        first = false;
        result.append(R"({"metric":)").append(metricJson(labels)).append(R"(,"values":[)").append(points).append("]}");
    }
    result.append(']');
    responder.send(apiSuccess(R"({"resultType":"matrix","result":)" + result + '}'));
    return true;
}

} // namespace strata::sim::kube
