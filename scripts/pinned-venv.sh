# Sourced by the install scripts: `pinned_venv NAME DIR "REQUIREMENTS"` makes the virtual
# environment DIR with exactly REQUIREMENTS (pinned `pkg==version` words) from PyPI, once: a
# stamp in DIR records what it holds, and a different list makes it again. NAME prefixes the
# errors. Needs python3 (Debian's python3-venv is installed when the venv module is missing).
pinned_venv() {
    local name=$1 venv=$2 want=$3
    local stamp="$venv/.pinned"
    if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
        return 0
    fi
    local python
    python=$(command -v python3 || true)
    if [ -z "$python" ]; then
        echo "$name: python3 is not installed" >&2
        return 1
    fi
    if ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
        local sudo=""
        if [ "$(id -u)" != 0 ]; then sudo="sudo -n"; fi
        DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
            python3-venv >/dev/null
    fi
    rm -rf "$venv"
    "$python" -m venv "$venv"
    # shellcheck disable=SC2086 # $want is a list of requirements
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $want >&2
    echo "$want" >"$stamp"
}
