#!/bin/bash
# Runs a command (the keychain tests) against a real Secret Service: a private D-Bus session with
# a throwaway, unlocked gnome-keyring in a temporary HOME, as in shared/reference/ecosystem.md §3.
# The developer's own keyring, D-Bus session and display are never touched; nothing is left
# running or on disk afterwards.
#
#   usage: with-keyring.sh <command> [args...]
#
# Without dbus-run-session or gnome-keyring-daemon the command runs anyway with
# STRATA_KEYRING_UNAVAILABLE set to the reason, so the tests can skip (or fail under
# STRATA_REQUIRE_ALL).
set -euo pipefail

if [ $# -eq 0 ]; then
    echo "usage: $0 <command> [args...]" >&2
    exit 2
fi

if [ -z "${STRATA_KEYRING_SESSION:-}" ]; then
    for tool in dbus-run-session gnome-keyring-daemon; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            export STRATA_KEYRING_UNAVAILABLE="$tool is not installed"
            exec "$@"
        fi
    done

    session=$(mktemp -d "${TMPDIR:-/tmp}/strata-keyring.XXXXXX")
    mkdir -m 700 "$session/home" "$session/run"

    # shellcheck disable=SC2317  # called from the EXIT trap
    # Processes started inside the session carry STRATA_KEYRING_SESSION=$session in their
    # environment: that identifies exactly ours (the keyring daemons) and nobody else's.
    session_pids() {
        local environ pid
        for environ in /proc/[0-9]*/environ; do
            pid=${environ#/proc/}
            pid=${pid%/environ}
            [ "$pid" = "$$" ] && continue
            if tr '\0' '\n' 2>/dev/null <"$environ" | grep -qxF "STRATA_KEYRING_SESSION=$session"; then
                # Zombies are already gone; only their parent can reap them.
                if [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != "Z" ]; then
                    echo "$pid"
                fi
            fi
        done
    }
    # shellcheck disable=SC2317  # the EXIT trap
    cleanup() {
        # The daemons exit when the session bus goes away; give them a moment, then insist.
        local pids
        for _ in $(seq 50); do
            pids=$(session_pids)
            [ -z "$pids" ] && break
            sleep 0.1
        done
        pids=$(session_pids)
        if [ -n "$pids" ]; then
            # shellcheck disable=SC2086
            kill $pids 2>/dev/null || true
        fi
        rm -rf "$session"
    }
    trap cleanup EXIT
    # Run the EXIT trap on interruption too (ctest timeout, Ctrl-C).
    trap 'exit 143' TERM
    trap 'exit 130' INT

    status=0
    # XDG_* point into the temporary HOME too: gnome-keyring keeps its files in XDG_DATA_HOME.
    # No display, no desktop: QtKeychain then picks libsecret and no password prompt can appear.
    env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_CURRENT_DESKTOP -u KDE_SESSION_VERSION \
        -u DBUS_SESSION_BUS_ADDRESS -u GNOME_KEYRING_CONTROL -u SSH_AUTH_SOCK \
        STRATA_KEYRING_SESSION="$session" \
        HOME="$session/home" \
        XDG_RUNTIME_DIR="$session/run" \
        XDG_DATA_HOME="$session/home/.local/share" \
        XDG_CONFIG_HOME="$session/home/.config" \
        XDG_CACHE_HOME="$session/home/.cache" \
        dbus-run-session -- "$0" "$@" </dev/null &
    # wait, unlike a foreground command, lets the signal traps above run at once.
    wait $! || status=$?
    exit "$status"
fi

# Inside the private session: unlock a fresh login keyring with a throwaway password (it
# creates $HOME/.local/share/keyrings/login.keyring), then become the test.
printf '%s' "strata-throwaway-$RANDOM$RANDOM" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
export STRATA_KEYRING_WRAPPED=1
exec "$@"
