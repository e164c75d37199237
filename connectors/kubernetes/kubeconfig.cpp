#include "connectors/kubernetes/kubeconfig.h"

#include "connectors/http/childprocess.h"
#include "connectors/http/jsonparse.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

extern char **environ;

namespace strata::kubernetes {

namespace {

connectors::Error configError(const std::string &source,
                              const std::string &message,
                              connectors::Error::Kind kind = connectors::Error::Kind::Parse)
{
    return connectors::Error::make(kind, "kubeconfig " + source + ": " + message);
}

std::string scalar(const YAML::Node &node, const char *key)
{
    const YAML::Node value = node[key];
    if (!value || !value.IsScalar()) {
        return {};
    }
    return value.as<std::string>();
}

bool boolScalar(const YAML::Node &node, const char *key)
{
    const std::string value = scalar(node, key);
    return value == "true" || value == "True" || value == "TRUE" || value == "yes";
}

std::string resolvePath(const std::string &path, const std::string &baseDir)
{
    if (path.empty() || path.front() == '/' || baseDir.empty()) {
        return path;
    }
    if (path.rfind("~/", 0) == 0) {
        if (const char *home = std::getenv("HOME")) {
            return std::string(home) + path.substr(1);
        }
    }
    return baseDir + "/" + path;
}

std::string dirName(const std::string &path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) {
        return ".";
    }
    return slash == 0 ? "/" : path.substr(0, slash);
}

// A kubeconfig names files that Strata then reads: a hostile or mistaken one may name
// /dev/zero, a FIFO or a multi-GB file. Only regular files up to these sizes are read.
constexpr std::size_t kMaxKubeconfigBytes = 16u << 20;    // merged multi-cluster configs run to a few MB
constexpr std::size_t kMaxCredentialFileBytes = 1u << 20; // certificates, keys and tokens are a few KB

/// nullopt + `why` ("is not a regular file", "is larger than 1 MiB", strerror) on failure.
std::optional<std::string> readFile(const std::string &path, std::size_t maxBytes, std::string *why = nullptr)
{
    const auto fail = [why](std::string reason) -> std::optional<std::string> {
        if (why) {
            *why = std::move(reason);
        }
        return std::nullopt;
    };
    struct stat info
    {
    };
    if (::stat(path.c_str(), &info) != 0) {
        return fail(std::strerror(errno));
    }
    if (!S_ISREG(info.st_mode)) {
        return fail("is not a regular file");
    }
    const std::string limit =
        maxBytes >= (1u << 20) ? std::to_string(maxBytes >> 20) + " MiB" : std::to_string(maxBytes >> 10) + " KiB";
    if (std::uint64_t(info.st_size) > maxBytes) {
        return fail("is larger than " + limit);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return fail(std::strerror(errno));
    }
    // Read at most one byte past the limit: the file may have grown since stat().
    std::string out(maxBytes + 1, '\0');
    in.read(out.data(), std::streamsize(out.size()));
    if (in.bad()) {
        return fail(std::strerror(errno));
    }
    out.resize(std::size_t(in.gcount()));
    if (out.size() > maxBytes) {
        return fail("is larger than " + limit);
    }
    return out;
}

std::optional<std::string> base64Decode(std::string_view text)
{
    const auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        if (c == '+' || c == '-') {
            return 62;
        }
        if (c == '/' || c == '_') {
            return 63;
        }
        return -1;
    };
    std::string out;
    unsigned buffer = 0;
    int bits = 0;
    bool padding = false;
    for (const char c : text) {
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            continue;
        }
        if (c == '=') {
            padding = true;
            continue;
        }
        const int v = value(c);
        if (v < 0 || padding) {
            return std::nullopt;
        }
        buffer = (buffer << 6) | static_cast<unsigned>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
        }
    }
    return out;
}

std::string base64Encode(std::string_view data)
{
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < data.size(); i += 3) {
        const unsigned n = (static_cast<unsigned char>(data[i]) << 16) | (static_cast<unsigned char>(data[i + 1]) << 8)
                           | static_cast<unsigned char>(data[i + 2]);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        out += alphabet[n & 63];
    }
    if (i + 1 == data.size()) {
        const unsigned n = static_cast<unsigned char>(data[i]) << 16;
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += "==";
    } else if (i + 2 == data.size()) {
        const unsigned n = (static_cast<unsigned char>(data[i]) << 16) | (static_cast<unsigned char>(data[i + 1]) << 8);
        out += alphabet[(n >> 18) & 63];
        out += alphabet[(n >> 12) & 63];
        out += alphabet[(n >> 6) & 63];
        out += '=';
    }
    return out;
}

std::string trimRight(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ' || text.back() == '\t')) {
        text.pop_back();
    }
    return text;
}

/// "2024-05-01T12:00:00Z", with optional fraction and numeric offset.
std::optional<std::chrono::system_clock::time_point> parseRfc3339(std::string_view text)
{
    const auto number = [&text](std::size_t pos, std::size_t len) -> std::optional<int> {
        if (pos + len > text.size()) {
            return std::nullopt;
        }
        int v = 0;
        for (std::size_t i = pos; i < pos + len; ++i) {
            if (text[i] < '0' || text[i] > '9') {
                return std::nullopt;
            }
            v = v * 10 + (text[i] - '0');
        }
        return v;
    };
    const auto year = number(0, 4), month = number(5, 2), day = number(8, 2);
    const auto hour = number(11, 2), minute = number(14, 2), second = number(17, 2);
    if (!year || !month || !day || !hour || !minute || !second || text.size() < 20 || text[4] != '-' || text[7] != '-'
        || (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || text[13] != ':' || text[16] != ':') {
        return std::nullopt;
    }
    std::size_t pos = 19;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
            ++pos;
        }
    }
    int offsetMinutes = 0;
    if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
        ++pos;
    } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        const auto oh = number(pos + 1, 2), om = number(pos + 4, 2);
        if (!oh || !om) {
            return std::nullopt;
        }
        offsetMinutes = (*oh * 60 + *om) * (text[pos] == '-' ? -1 : 1);
        pos += 6;
    } else {
        return std::nullopt;
    }
    if (pos != text.size()) {
        return std::nullopt;
    }
    const std::chrono::year_month_day date{std::chrono::year{*year},
                                           std::chrono::month{static_cast<unsigned>(*month)},
                                           std::chrono::day{static_cast<unsigned>(*day)}};
    if (!date.ok()) {
        return std::nullopt;
    }
    return std::chrono::sys_days{date} + std::chrono::hours{*hour} + std::chrono::minutes{*minute}
           + std::chrono::seconds{*second} - std::chrono::minutes{offsetMinutes};
}

} // namespace

std::vector<std::string> kubeconfigPaths()
{
    std::vector<std::string> paths;
    if (const char *env = std::getenv("KUBECONFIG"); env && *env) {
        std::string_view rest(env);
        while (!rest.empty()) {
            const auto colon = rest.find(':');
            const std::string_view part = rest.substr(0, colon);
            if (!part.empty()) {
                paths.emplace_back(part);
            }
            rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
        }
        if (!paths.empty()) {
            return paths;
        }
    }
    const char *home = std::getenv("HOME");
    paths.push_back(std::string(home ? home : "") + "/.kube/config");
    return paths;
}

Result<Kubeconfig> parseKubeconfig(std::string_view yaml, const std::string &baseDir, const std::string &sourceName)
{
    const std::string source = sourceName.empty() ? baseDir : sourceName;
    YAML::Node root;
    try {
        root = YAML::Load(std::string(yaml));
    } catch (const YAML::Exception &e) {
        return connectors::fail(configError(source, std::string("not valid YAML: ") + e.what()));
    }
    Kubeconfig config;
    config.source = source;
    if (!root || root.IsNull()) {
        return config; // an empty file is an empty config, as for kubectl
    }
    if (!root.IsMap()) {
        return connectors::fail(configError(source, "not a kubeconfig (the document is not a mapping)"));
    }
    try {
        config.currentContext = scalar(root, "current-context");
        const auto entries = [&](const char *key) -> Result<std::vector<std::pair<std::string, YAML::Node>>> {
            std::vector<std::pair<std::string, YAML::Node>> out;
            const YAML::Node list = root[key];
            if (!list || list.IsNull()) {
                return out;
            }
            if (!list.IsSequence()) {
                return connectors::fail(configError(source, std::string("\"") + key + "\" is not a list"));
            }
            for (const auto &entry : list) {
                const std::string name = entry.IsMap() ? scalar(entry, "name") : std::string{};
                if (name.empty()) {
                    return connectors::fail(
                        configError(source, std::string("an entry of \"") + key + "\" has no name"));
                }
                out.emplace_back(name, entry);
            }
            return out;
        };
        auto clusters = entries("clusters");
        auto users = entries("users");
        auto contexts = entries("contexts");
        for (auto *list : {&clusters, &users, &contexts}) {
            if (!*list) {
                return connectors::fail(list->error());
            }
        }
        for (const auto &[name, entry] : *clusters) {
            const YAML::Node c = entry["cluster"];
            KubeconfigCluster cluster;
            cluster.sourceFile = source;
            if (c && c.IsMap()) {
                cluster.server = scalar(c, "server");
                cluster.certificateAuthority = resolvePath(scalar(c, "certificate-authority"), baseDir);
                cluster.certificateAuthorityData = scalar(c, "certificate-authority-data");
                cluster.insecureSkipTlsVerify = boolScalar(c, "insecure-skip-tls-verify");
                cluster.tlsServerName = scalar(c, "tls-server-name");
            }
            config.clusters.emplace(name, std::move(cluster));
        }
        for (const auto &[name, entry] : *users) {
            const YAML::Node u = entry["user"];
            KubeconfigUser user;
            user.sourceFile = source;
            if (u && u.IsMap()) {
                user.token = scalar(u, "token");
                user.tokenFile = resolvePath(scalar(u, "tokenFile"), baseDir);
                user.clientCertificate = resolvePath(scalar(u, "client-certificate"), baseDir);
                user.clientCertificateData = scalar(u, "client-certificate-data");
                user.clientKey = resolvePath(scalar(u, "client-key"), baseDir);
                user.clientKeyData = scalar(u, "client-key-data");
                if (const YAML::Node provider = u["auth-provider"]; provider && provider.IsMap()) {
                    user.authProvider = scalar(provider, "name");
                    if (user.authProvider.empty()) {
                        user.authProvider = "unnamed";
                    }
                }
                if (const YAML::Node e = u["exec"]; e && e.IsMap()) {
                    ExecConfig exec;
                    exec.command = scalar(e, "command");
                    exec.apiVersion = scalar(e, "apiVersion");
                    exec.installHint = scalar(e, "installHint");
                    exec.provideClusterInfo = boolScalar(e, "provideClusterInfo");
                    if (const YAML::Node args = e["args"]; args && args.IsSequence()) {
                        for (const auto &arg : args) {
                            exec.args.push_back(arg.IsScalar() ? arg.as<std::string>() : std::string{});
                        }
                    }
                    if (const YAML::Node env = e["env"]; env && env.IsSequence()) {
                        for (const auto &var : env) {
                            if (var.IsMap() && !scalar(var, "name").empty()) {
                                exec.env.emplace_back(scalar(var, "name"), scalar(var, "value"));
                            }
                        }
                    }
                    if (exec.command.empty()) {
                        return connectors::fail(
                            configError(source, "user \"" + name + "\" has an exec entry without command"));
                    }
                    user.exec = std::move(exec);
                }
            }
            config.users.emplace(name, std::move(user));
        }
        for (const auto &[name, entry] : *contexts) {
            const YAML::Node c = entry["context"];
            KubeconfigContext context;
            context.sourceFile = source;
            if (c && c.IsMap()) {
                context.cluster = scalar(c, "cluster");
                context.user = scalar(c, "user");
                context.namespace_ = scalar(c, "namespace");
            }
            if (config.contextEntries.emplace(name, std::move(context)).second) {
                config.contexts.push_back(name);
            }
        }
    } catch (const YAML::Exception &e) {
        return connectors::fail(configError(source, std::string("malformed entry: ") + e.what()));
    }
    return config;
}

Result<Kubeconfig> loadKubeconfig(const std::vector<std::string> &paths)
{
    Kubeconfig merged;
    std::string looked;
    bool found = false;
    for (const auto &path : paths) {
        looked += (looked.empty() ? "" : ":") + path;
        struct stat info
        {
        };
        if (::stat(path.c_str(), &info) != 0) {
            continue; // kubectl skips missing files in KUBECONFIG
        }
        std::string why;
        const auto text = readFile(path, kMaxKubeconfigBytes, &why);
        if (!text) {
            return connectors::fail(configError(path, "cannot be read: " + why));
        }
        auto config = parseKubeconfig(*text, dirName(path), path);
        if (!config) {
            return connectors::fail(config.error());
        }
        found = true;
        if (merged.currentContext.empty()) {
            merged.currentContext = config->currentContext;
        }
        for (const auto &name : config->contexts) {
            if (merged.contextEntries.emplace(name, config->contextEntries.at(name)).second) {
                merged.contexts.push_back(name);
            }
        }
        merged.clusters.insert(config->clusters.begin(), config->clusters.end());
        merged.users.insert(config->users.begin(), config->users.end());
    }
    merged.source = looked;
    if (!found) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Parse,
                                    "No kubeconfig found (looked at " + (looked.empty() ? "nothing" : looked) + ")"));
    }
    return merged;
}

Result<ClusterEndpoint> Kubeconfig::endpoint(const std::string &context) const
{
    const std::string name = context.empty() ? currentContext : context;
    if (name.empty()) {
        return connectors::fail(configError(source, "no current-context is set and no context was chosen"));
    }
    const auto ctx = contextEntries.find(name);
    if (ctx == contextEntries.end()) {
        return connectors::fail(configError(source, "context \"" + name + "\" not found"));
    }
    const std::string &file = ctx->second.sourceFile;
    const auto cluster = clusters.find(ctx->second.cluster);
    if (ctx->second.cluster.empty() || cluster == clusters.end()) {
        return connectors::fail(configError(
            file, "context \"" + name + "\" refers to cluster \"" + ctx->second.cluster + "\", which is not defined"));
    }
    ClusterEndpoint endpoint;
    endpoint.contextName = name;
    endpoint.clusterName = ctx->second.cluster;
    endpoint.userName = ctx->second.user;
    endpoint.defaultNamespace = ctx->second.namespace_;
    endpoint.server = cluster->second.server;
    while (!endpoint.server.empty() && endpoint.server.back() == '/') {
        endpoint.server.pop_back();
    }
    if (endpoint.server.empty()) {
        return connectors::fail(
            configError(cluster->second.sourceFile, "cluster \"" + endpoint.clusterName + "\" has no server"));
    }
    endpoint.insecureSkipTlsVerify = cluster->second.insecureSkipTlsVerify;
    endpoint.tlsServerName = cluster->second.tlsServerName;
    const std::string clusterWhat = "cluster \"" + endpoint.clusterName + "\"";
    if (!cluster->second.certificateAuthorityData.empty()) {
        auto pem = base64Decode(cluster->second.certificateAuthorityData);
        if (!pem) {
            return connectors::fail(configError(cluster->second.sourceFile,
                                                clusterWhat + ": certificate-authority-data is not valid base64",
                                                connectors::Error::Kind::Tls));
        }
        endpoint.caPem = std::move(*pem);
    } else if (!cluster->second.certificateAuthority.empty()) {
        std::string why;
        auto pem = readFile(cluster->second.certificateAuthority, kMaxCredentialFileBytes, &why);
        if (!pem) {
            return connectors::fail(configError(cluster->second.sourceFile,
                                                clusterWhat + ": certificate-authority file \""
                                                    + cluster->second.certificateAuthority
                                                    + "\" cannot be read: " + why,
                                                connectors::Error::Kind::Tls));
        }
        endpoint.caPem = std::move(*pem);
    }
    if (endpoint.userName.empty()) {
        return endpoint; // anonymous
    }
    const auto user = users.find(endpoint.userName);
    if (user == users.end()) {
        return connectors::fail(configError(
            file, "context \"" + name + "\" refers to user \"" + endpoint.userName + "\", which is not defined"));
    }
    const KubeconfigUser &u = user->second;
    endpoint.baseDir = dirName(u.sourceFile);
    const std::string userWhat = "user \"" + endpoint.userName + "\"";
    const auto credentialError = [&](const std::string &message) {
        return configError(u.sourceFile, userWhat + ": " + message, connectors::Error::Kind::Auth);
    };
    if (!u.token.empty()) {
        endpoint.token = u.token;
    } else if (!u.tokenFile.empty()) {
        std::string why;
        auto token = readFile(u.tokenFile, kMaxCredentialFileBytes, &why);
        if (!token) {
            return connectors::fail(credentialError("tokenFile \"" + u.tokenFile + "\" cannot be read: " + why));
        }
        endpoint.token = trimRight(std::move(*token));
    }
    const auto pemOf = [&](const std::string &data, const std::string &file, const char *what) -> Result<std::string> {
        if (!data.empty()) {
            auto pem = base64Decode(data);
            if (!pem) {
                return connectors::fail(credentialError(std::string(what) + "-data is not valid base64"));
            }
            return std::move(*pem);
        }
        if (!file.empty()) {
            std::string why;
            auto pem = readFile(file, kMaxCredentialFileBytes, &why);
            if (!pem) {
                return connectors::fail(
                    credentialError(std::string(what) + " file \"" + file + "\" cannot be read: " + why));
            }
            return std::move(*pem);
        }
        return std::string{};
    };
    auto cert = pemOf(u.clientCertificateData, u.clientCertificate, "client-certificate");
    if (!cert) {
        return connectors::fail(cert.error());
    }
    auto key = pemOf(u.clientKeyData, u.clientKey, "client-key");
    if (!key) {
        return connectors::fail(key.error());
    }
    if (cert->empty() != key->empty()) {
        return connectors::fail(credentialError(cert->empty() ? "client-key without client-certificate"
                                                              : "client-certificate without client-key"));
    }
    endpoint.clientCertPem = std::move(*cert);
    endpoint.clientKeyPem = std::move(*key);
    endpoint.exec = u.exec;
    if (!u.authProvider.empty() && endpoint.token.empty() && endpoint.clientCertPem.empty() && !endpoint.exec) {
        return connectors::fail(credentialError("uses the auth-provider \"" + u.authProvider
                                                + "\", which Strata does not support; use an exec credential plugin "
                                                  "(e.g. kubelogin) instead"));
    }
    return endpoint;
}

Result<ExecCredential> parseExecCredential(std::string_view text, const std::string &what)
{
    const nlohmann::json doc = http::parseJsonBounded(text);
    if (doc.is_discarded() || !doc.is_object()) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Auth, what + " printed no ExecCredential JSON"));
    }
    const auto status = doc.find("status");
    if (status == doc.end() || !status->is_object()) {
        return connectors::fail(
            connectors::Error::make(connectors::Error::Kind::Auth, what + " printed an ExecCredential without status"));
    }
    const auto stringOf = [&status](const char *key) {
        const auto it = status->find(key);
        return it != status->end() && it->is_string() ? it->get<std::string>() : std::string{};
    };
    ExecCredential credential;
    credential.token = stringOf("token");
    credential.clientCertPem = stringOf("clientCertificateData");
    credential.clientKeyPem = stringOf("clientKeyData");
    if (credential.token.empty() && (credential.clientCertPem.empty() || credential.clientKeyPem.empty())) {
        return connectors::fail(connectors::Error::make(
            connectors::Error::Kind::Auth, what + " returned neither a token nor a client certificate and key"));
    }
    if (const std::string expiry = stringOf("expirationTimestamp"); !expiry.empty()) {
        credential.expiry = parseRfc3339(expiry);
        if (!credential.expiry) {
            return connectors::fail(
                connectors::Error::make(connectors::Error::Kind::Auth,
                                        what + " returned an unreadable expirationTimestamp \"" + expiry + "\""));
        }
    }
    return credential;
}

Result<ExecCredential> runExecPlugin(const ExecConfig &exec,
                                     const ClusterEndpoint &cluster,
                                     std::chrono::milliseconds timeout,
                                     const http::CancelToken &cancel)
{
    std::string command = exec.command;
    if (command.find('/') != std::string::npos && command.front() != '/' && !cluster.baseDir.empty()) {
        command = cluster.baseDir + "/" + command;
    }
    const std::string what = "exec credential plugin \"" + exec.command + "\""
                             + (cluster.userName.empty() ? "" : " of user \"" + cluster.userName + "\"");
    const auto authError = [](std::string message) {
        return connectors::Error::make(connectors::Error::Kind::Auth, std::move(message));
    };

    nlohmann::json info = {
        {"apiVersion", exec.apiVersion.empty() ? "client.authentication.k8s.io/v1beta1" : exec.apiVersion},
        {"kind", "ExecCredential"},
        {"spec", {{"interactive", false}}}};
    if (exec.provideClusterInfo) {
        nlohmann::json c = {{"server", cluster.server}, {"insecure-skip-tls-verify", cluster.insecureSkipTlsVerify}};
        if (!cluster.caPem.empty()) {
            c["certificate-authority-data"] = base64Encode(cluster.caPem);
        }
        if (!cluster.tlsServerName.empty()) {
            c["tls-server-name"] = cluster.tlsServerName;
        }
        info["spec"]["cluster"] = std::move(c);
    }

    // Environment: inherited, minus what the plugin config overrides, plus the overrides.
    std::vector<std::string> envStrings;
    const auto overridden = [&exec](std::string_view entry) {
        const auto eq = entry.find('=');
        const std::string_view name = entry.substr(0, eq);
        if (name == "KUBERNETES_EXEC_INFO") {
            return true;
        }
        for (const auto &[key, value] : exec.env) {
            if (name == key) {
                return true;
            }
        }
        return false;
    };
    for (char **e = environ; e && *e; ++e) {
        if (!overridden(*e)) {
            envStrings.emplace_back(*e);
        }
    }
    for (const auto &[key, value] : exec.env) {
        envStrings.push_back(key + "=" + value);
    }
    envStrings.push_back("KUBERNETES_EXEC_INFO=" + info.dump());
    std::vector<std::string> argStrings{command};
    argStrings.insert(argStrings.end(), exec.args.begin(), exec.args.end());

    http::ChildProcess run = http::runChildProcess(argStrings, &envStrings, timeout, cancel);
    switch (run.end) {
    case http::ChildProcess::End::NotStarted: {
        std::string message = what + " cannot be started: " + std::strerror(run.startErrno);
        if (!exec.installHint.empty()) {
            message += ". " + trimRight(exec.installHint);
        }
        return connectors::fail(authError(std::move(message)));
    }
    case http::ChildProcess::End::Cancelled:
        return connectors::fail(connectors::Error::make(connectors::Error::Kind::Cancelled, what + " was cancelled"));
    case http::ChildProcess::End::TimedOut:
        return connectors::fail(
            authError(what + " produced no credential within "
                      + std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count())
                      + " s and was stopped"));
    case http::ChildProcess::End::Exited:
    case http::ChildProcess::End::Signalled:
        break;
    }
    // The tail of stderr says why; plugins print usage or OAuth errors there.
    std::string tail = trimRight(run.stderrText);
    if (tail.size() > 500) {
        tail = "..." + tail.substr(tail.size() - 500);
    }
    if (run.end != http::ChildProcess::End::Exited || run.exitCode != 0) {
        const std::string how = run.end == http::ChildProcess::End::Exited
                                    ? "exited with status " + std::to_string(run.exitCode)
                                    : "was killed by signal " + std::to_string(run.signal);
        return connectors::fail(authError(what + " " + how + (tail.empty() ? "" : ": " + tail)));
    }
    auto credential = parseExecCredential(run.stdoutText, what);
    if (!credential && !tail.empty()) {
        connectors::Error error = credential.error();
        error.message += " (stderr: " + tail + ")";
        return connectors::fail(std::move(error));
    }
    return credential;
}

CredentialProvider::CredentialProvider(ClusterEndpoint endpoint, Runner runner, Clock now)
    : m_endpoint(std::move(endpoint))
    , m_runner(runner ? std::move(runner) : Runner(&runExecPlugin))
    , m_now(now ? std::move(now) : Clock([] {
        return std::chrono::system_clock::now();
    }))
{}

Result<Credentials> CredentialProvider::credentials(const http::CancelToken &cancel)
{
    if (!m_endpoint.exec) {
        return Credentials{m_endpoint.token, m_endpoint.clientCertPem, m_endpoint.clientKeyPem};
    }
    std::lock_guard lock(m_mutex);
    // Refresh a little early so a request never leaves with a token about to expire.
    constexpr auto margin = std::chrono::seconds{30};
    if (m_cached && (!m_cached->expiry || m_now() + margin < *m_cached->expiry)) {
        return Credentials{m_cached->token, m_cached->clientCertPem, m_cached->clientKeyPem};
    }
    m_cached.reset();
    ++m_runs;
    auto credential = m_runner(*m_endpoint.exec, m_endpoint, execTimeout, cancel);
    if (!credential) {
        return connectors::fail(credential.error());
    }
    m_cached = std::move(*credential);
    return Credentials{m_cached->token, m_cached->clientCertPem, m_cached->clientKeyPem};
}

bool CredentialProvider::invalidate()
{
    if (!m_endpoint.exec) {
        return false;
    }
    std::lock_guard lock(m_mutex);
    m_cached.reset();
    return true;
}

int CredentialProvider::execRuns() const
{
    std::lock_guard lock(m_mutex);
    return m_runs;
}

} // namespace strata::kubernetes
