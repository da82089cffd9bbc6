# Sourced by .ci/run: install nginx from Debian's packages if missing, for the scale-out e2e test (two vtt processes
# behind the project's deploy/nginx-vtt.conf). The test runs its own nginx in a temporary folder; a system nginx
# the package may have started is stopped so that it holds no port.

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
    echo "ci: installing nginx from Debian's packages" >&2
    "${SUDO[@]}" apt-get update -q
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light || \
        "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx
    "${SUDO[@]}" /usr/sbin/nginx -s quit 2>/dev/null || true
fi
