#pragma once

#include <cassert>
#include <type_traits>
#include <utility>
#include <variant>

namespace strata {

/// Tag wrapper that marks a value as the error side of a Result (like std::unexpected).
template <class E> struct Unexpected
{
    E error;
};

template <class E> Unexpected(E) -> Unexpected<E>;

/// A value or an error, never both: the return type of every connector call
/// (std::expected is C++23; this is the subset Strata needs).
/// `if (result) use(*result); else report(result.error());`
template <class T, class E> class Expected
{
public:
    Expected(T value)
        : m_v(std::in_place_index<0>, std::move(value))
    {}
    Expected(Unexpected<E> error)
        : m_v(std::in_place_index<1>, std::move(error.error))
    {}

    [[nodiscard]] bool hasValue() const noexcept { return m_v.index() == 0; }
    explicit operator bool() const noexcept { return hasValue(); }

    T &value() &
    {
        assert(hasValue());
        return std::get<0>(m_v);
    }
    const T &value() const &
    {
        assert(hasValue());
        return std::get<0>(m_v);
    }
    T &&value() &&
    {
        assert(hasValue());
        return std::get<0>(std::move(m_v));
    }
    const E &error() const &
    {
        assert(!hasValue());
        return std::get<1>(m_v);
    }
    E &&error() &&
    {
        assert(!hasValue());
        return std::get<1>(std::move(m_v));
    }

    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }
    T &&operator*() && { return std::move(*this).value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }

private:
    std::variant<T, E> m_v;
};

/// Result of an operation that yields nothing on success.
template <class E> class Expected<void, E>
{
public:
    Expected() = default;
    Expected(Unexpected<E> error)
        : m_error(std::move(error.error))
        , m_failed(true)
    {}

    [[nodiscard]] bool hasValue() const noexcept { return !m_failed; }
    explicit operator bool() const noexcept { return hasValue(); }
    const E &error() const &
    {
        assert(m_failed);
        return m_error;
    }

private:
    E m_error{};
    bool m_failed = false;
};

} // namespace strata
