# Pagehost on Debian 12: builds in release mode and serves on 0.0.0.0:8080 as a non-root user.
# The packages come from scripts/install-deps, the same script the README's commands and CI use, so the
# three cannot drift apart (.ci/check-dockerfile checks that this file keeps using it).
#
#   docker build -t pagehost .
#   docker run -p 8080:8080 -e PAGEHOST_TOKEN=change-me pagehost
FROM swift:6.2-bookworm AS build
WORKDIR /src
COPY scripts/install-deps scripts/install-deps
RUN scripts/install-deps --runtime
COPY . .
RUN swift build -c release --product pagehost \
 && install -D "$(swift build -c release --show-bin-path)/pagehost" /opt/pagehost/bin/pagehost

FROM debian:12-slim
COPY scripts/install-deps /opt/pagehost/scripts/install-deps
RUN /opt/pagehost/scripts/install-deps --runtime && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/lib/swift/linux/*.so* /usr/lib/swift/linux/
COPY --from=build /opt/pagehost/bin/pagehost /opt/pagehost/bin/pagehost
COPY admin-ui /opt/pagehost/admin-ui
COPY examples /opt/pagehost/examples
COPY config /opt/pagehost/config
RUN useradd --system --create-home --home-dir /var/lib/pagehost pagehost
USER pagehost
WORKDIR /opt/pagehost
ENV PAGEHOST_HOST=0.0.0.0 PAGEHOST_PORT=8080 LD_LIBRARY_PATH=/usr/lib/swift/linux
EXPOSE 8080
# GET /api/health needs no token; bash's /dev/tcp avoids installing curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /api/health HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q '\"status\":\"ok\"' <&3"]
# Listening beyond loopback needs a token chosen by whoever runs the container: `-e PAGEHOST_TOKEN=…`.
ENTRYPOINT ["/bin/bash", "-c", "[ -n \"${PAGEHOST_TOKEN:-}\" ] || { echo 'pagehost: set PAGEHOST_TOKEN (docker run -e PAGEHOST_TOKEN=…)' >&2; exit 2; }; exec /opt/pagehost/bin/pagehost serve --host 0.0.0.0 \"$@\"", "pagehost"]
