#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

/// Reading vendor DTOs out of nlohmann::json by key path ({"properties", "size"}), shared by the
/// connectors' from_json functions. Absent and null keys both read as absent: ONTAP and ARM send
/// null for unset optional properties. Errors are nlohmann's exceptions (from_json's contract),
/// with the dotted key path in the message, which nlohmann leaves out without JSON_DIAGNOSTICS.
namespace strata::http::jsonfields {

/// The node at `path` below `j`, or null when a key is missing or null or a step is no object.
inline const nlohmann::json *find(const nlohmann::json &j, std::initializer_list<const char *> path)
{
    const nlohmann::json *node = &j;
    for (const char *key : path) {
        if (!node->is_object()) {
            return nullptr;
        }
        auto it = node->find(key);
        if (it == node->end() || it->is_null()) {
            return nullptr;
        }
        node = &*it;
    }
    return node;
}

/// "properties.size" for {"properties", "size"}.
inline std::string dotted(std::initializer_list<const char *> path)
{
    std::string text;
    for (const char *key : path) {
        text += (text.empty() ? "" : ".") + std::string(key);
    }
    return text;
}

/// `node.get_to(out)`; a wrong type throws type_error "field 'a.b': type must be ..., but is ...".
/// An integer field given a number it cannot hold (1.2e27, NaN, 2^64-1 into a signed size)
/// throws type_error 302 "field 'a.b': number out of range": nlohmann would convert it
/// (undefined behaviour for a float out of range).
template <class T> void convert(const nlohmann::json &node, std::initializer_list<const char *> path, T &out)
{
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        bool fits = true;
        if (node.is_number_float()) {
            const double value = node.get<double>();
            // max() is not exactly representable as a double: compare against 2^digits instead.
            fits = std::isfinite(value) && value >= double(std::numeric_limits<T>::min())
                   && value < std::ldexp(1.0, std::numeric_limits<T>::digits);
        } else if (node.is_number_unsigned()) {
            fits = node.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<T>::max());
        } else if (node.is_number_integer()) {
            const std::int64_t value = node.get<std::int64_t>();
            fits =
                std::is_signed_v<T>
                    ? value >= std::int64_t(std::numeric_limits<T>::min())
                          && (sizeof(T) >= sizeof(std::int64_t) || value <= std::int64_t(std::numeric_limits<T>::max()))
                    : value >= 0 && std::uint64_t(value) <= std::uint64_t(std::numeric_limits<T>::max());
        }
        if (!fits) {
            throw nlohmann::json::type_error::create(302, "field '" + dotted(path) + "': number out of range", &node);
        }
    }
    try {
        node.get_to(out);
    } catch (const nlohmann::json::type_error &e) {
        std::string_view detail = e.what();
        if (auto end = detail.find("] "); end != std::string_view::npos) {
            detail.remove_prefix(end + 2);
        }
        throw nlohmann::json::type_error::create(e.id, "field '" + dotted(path) + "': " + std::string(detail), &node);
    }
}

/// Optional key: `out` keeps its value when the key is absent or null.
template <class T> void read(const nlohmann::json &j, std::initializer_list<const char *> path, T &out)
{
    if (const nlohmann::json *node = find(j, path)) {
        convert(*node, path, out);
    }
}

/// Optional key into an optional: nullopt stays when the key is absent or null.
template <class T> void read(const nlohmann::json &j, std::initializer_list<const char *> path, std::optional<T> &out)
{
    if (const nlohmann::json *node = find(j, path)) {
        T value{};
        convert(*node, path, value);
        out = std::move(value);
    }
}

/// Required key: absent or null throws out_of_range 403 "key 'a.b' not found".
template <class T> void require(const nlohmann::json &j, std::initializer_list<const char *> path, T &out)
{
    const nlohmann::json *node = find(j, path);
    if (!node) {
        throw nlohmann::json::out_of_range::create(403, "key '" + dotted(path) + "' not found", &j);
    }
    convert(*node, path, out);
}

} // namespace strata::http::jsonfields
